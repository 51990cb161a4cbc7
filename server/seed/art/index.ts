import * as apparel from './apparel';
import * as bags from './bags';
import * as ceramics from './ceramics';
import * as home from './home';
import * as stationery from './stationery';
import * as tea from './tea';
import type { Drawer } from './types';

/** Every kind of product the demo shop can draw. */
export const DRAWERS = {
  tee: apparel.teeDrawer({ pocket: false }),
  pocketTee: apparel.teeDrawer({ pocket: true }),
  campShirt: apparel.shirtDrawer({ longSleeves: false }),
  overshirt: apparel.shirtDrawer({ longSleeves: true }),
  sweater: apparel.sweaterDrawer({ cardigan: false }),
  cardigan: apparel.sweaterDrawer({ cardigan: true }),
  beanie: apparel.beanie,
  bucketHat: apparel.bucketHat,
  scarf: apparel.scarf,
  socks: apparel.socks,
  lamp: home.lamp,
  cushion: home.cushion,
  blanket: home.blanket,
  candle: home.candle,
  diffuser: home.diffuser,
  napkins: home.napkins,
  basket: home.basket,
  mug: ceramics.mug,
  bowl: ceramics.bowl,
  plate: ceramics.plate,
  vase: ceramics.vase,
  planter: ceramics.planter,
  teaCups: ceramics.cupsDrawer({ handle: false }),
  espressoCups: ceramics.cupsDrawer({ handle: true }),
  sideHandleTeapot: tea.teapotDrawer({ handle: 'side' }),
  loopTeapot: tea.teapotDrawer({ handle: 'loop' }),
  glassTeapot: tea.glassTeapot,
  teaTin: tea.teaTin,
  teaPouch: tea.teaPouch,
  teaCake: tea.teaCake,
  tote: bags.tote,
  backpack: bags.backpack,
  crossbody: bags.crossbody,
  pouch: bags.pouch,
  wallet: bags.wallet,
  notebook: stationery.notebook,
  pen: stationery.pen,
  pencilCase: stationery.pencilCase,
  planner: stationery.planner,
  washiTape: stationery.washiTape,
  postcards: stationery.postcards,
} satisfies Record<string, Drawer>;

export type ArtKind = keyof typeof DRAWERS;
