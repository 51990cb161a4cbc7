import sharp from 'sharp';
import { paint } from './paint';
import { frontView, detailView, lifestyleView, groupView } from './scenes';
import * as ceramics from './ceramics';
import type { Drawer } from './types';

const kinds: Record<string, Drawer> = { mug: ceramics.mug, bowl: ceramics.bowl, plate: ceramics.plate, vase: ceramics.vase, planter: ceramics.planter, cups: ceramics.cupsDrawer({ handle: false }) };
const colors = ['#9caf88', '#34506b', '#c8643c', '#e8dcc8'];
const tiles: Buffer[] = [];
let i = 0;
for (const [name, draw] of Object.entries(kinds)) {
  const color = colors[i++ % colors.length];
  const art = draw(paint(color), { seed: name });
  for (const svg of [frontView(art, color), detailView(art, color), lifestyleView(art, color, name)]) {
    tiles.push(await sharp(Buffer.from(svg)).resize(300, 300).png().toBuffer());
  }
}
const cols = 6;
const rows = Math.ceil(tiles.length / cols);
await sharp({ create: { width: cols * 300, height: rows * 300, channels: 3, background: '#fff' } })
  .composite(tiles.map((input, k) => ({ input, left: (k % cols) * 300, top: Math.floor(k / cols) * 300 })))
  .png()
  .toFile('/tmp/prev/sheet.png');
console.log('ok');
