import { ellipseSurface, mix, random, roundRect, stitch, surface } from './paint';
import type { Drawer } from './types';

const TEE = 'M158 62Q200 98 242 62L302 80L356 142L318 180L290 158L292 350Q200 360 108 350L110 158L82 180L44 142L98 80Z';

/** Flat-lay crew-neck tee, optionally with a chest pocket. */
export function teeDrawer(options: { pocket: boolean }): Drawer {
  return (p) => ({
    pose: 'flat',
    footprint: 0,
    focus: [200, 110],
    svg: `
      <path d="M158 62Q200 48 242 62Q200 90 158 62Z" fill="${p.deep}"/>
      ${surface(TEE, p.base, { texture: 'fabric', volume: 'soft' })}
      <path d="M158 62Q200 98 242 62" fill="none" stroke="${p.shade}" stroke-width="9"/>
      ${stitch('M162 74Q200 104 238 74', p.line, 0.35)}
      ${stitch('M112 340Q200 350 288 340', p.line, 0.35)}
      ${stitch('M70 168L94 146M330 168L306 146', p.line, 0.35)}
      <path d="M110 158Q160 220 140 300M290 158Q250 240 270 320" stroke="${p.deep}" stroke-opacity=".06" stroke-width="8" fill="none" stroke-linecap="round"/>
      ${options.pocket ? `${surface(roundRect(222, 122, 44, 50, 3), p.base, { texture: 'fabric', volume: 'flat' })}<path d="M222 122h44v50h-44z" fill="none" stroke="${p.shade}" stroke-width="2"/>${stitch('M222 130H266', p.line, 0.4)}` : ''}`,
  });
}

/** Flat-lay button-front shirt with a camp collar; long sleeves for overshirts. */
export function shirtDrawer(options: { longSleeves: boolean }): Drawer {
  return (p) => {
    const body = 'M154 64L246 64L302 82L292 160L294 352Q200 360 106 352L108 160L98 82Z';
    const sleeves = options.longSleeves
      ? `${surface('M98 82L46 300Q60 312 84 310L112 176Z', p.shade, { texture: 'fabric', volume: 'soft' })}${surface('M302 82L354 300Q340 312 316 310L288 176Z', p.shade, { texture: 'fabric', volume: 'soft' })}
         <path d="M48 290L84 300M352 290L316 300" stroke="${p.deep}" stroke-width="3" opacity=".4"/>`
      : `${surface('M98 82L48 150L86 184L112 158Z', p.base, { texture: 'fabric', volume: 'soft' })}${surface('M302 82L352 150L314 184L288 158Z', p.base, { texture: 'fabric', volume: 'soft' })}
         ${stitch('M58 160L90 180M342 160L310 180', p.line, 0.4)}`;
    const buttons = [120, 170, 220, 270, 320]
      .map(
        (y) =>
          `<circle cx="200" cy="${y}" r="4.5" fill="${mix(p.base, '#f3efe6', 0.55)}" stroke="${p.shade}" stroke-width="1"/>`,
      )
      .join('');
    return {
      pose: 'flat',
      footprint: 0,
      focus: [200, 110],
      svg: `
        <path d="M154 64Q200 52 246 64L200 110Z" fill="${p.deep}"/>
        ${sleeves}
        ${surface(body, p.base, { texture: 'fabric', volume: 'soft' })}
        <path d="M200 100V354" stroke="${p.shade}" stroke-width="3"/>
        ${stitch('M192 100V350', p.line, 0.35)}
        ${buttons}
        ${surface('M154 64L200 112L176 150L140 78Z', p.light, { texture: 'fabric', volume: 'top' })}
        ${surface('M246 64L200 112L224 150L260 78Z', p.light, { texture: 'fabric', volume: 'top' })}
        ${surface(roundRect(224, 150, 42, 46, 3), p.base, { texture: 'fabric', volume: 'flat' })}
        <rect x="224" y="150" width="42" height="46" rx="3" fill="none" stroke="${p.shade}" stroke-width="2"/>
        <path d="M108 160Q150 230 134 310M292 160Q250 240 266 326" stroke="${p.deep}" stroke-opacity=".06" stroke-width="8" fill="none" stroke-linecap="round"/>`,
    };
  };
}

/** Flat-lay knit sweater; a cardigan has a V-neck, a button band and buttons. */
export function sweaterDrawer(options: { cardigan: boolean }): Drawer {
  return (p) => {
    const neck = options.cardigan ? 'M160 66L200 150L240 66' : 'M160 66Q200 100 240 66';
    const front = options.cardigan
      ? `<path d="M200 150V352" stroke="${p.shade}" stroke-width="12"/>${[176, 220, 264, 308].map((y) => `<circle cx="200" cy="${y}" r="5.5" fill="${mix(p.base, '#5a4030', 0.55)}"/>`).join('')}`
      : '';
    return {
      pose: 'flat',
      footprint: 0,
      focus: [200, 120],
      svg: `
        <path d="M160 66Q200 52 240 66L200 ${options.cardigan ? 150 : 96}Z" fill="${p.deep}"/>
        ${surface('M100 84L44 296L86 310L118 180Z', p.shade, { texture: 'knit', volume: 'soft' })}
        ${surface('M300 84L356 296L314 310L282 180Z', p.shade, { texture: 'knit', volume: 'soft' })}
        ${surface('M42 290L88 304L82 330L36 316Z', p.deep, { texture: 'knit', volume: 'flat' })}
        ${surface('M358 290L312 304L318 330L364 316Z', p.deep, { texture: 'knit', volume: 'flat' })}
        ${surface('M160 66L240 66L300 84L286 176L290 326H110L114 176L100 84Z', p.base, { texture: 'knit', volume: 'soft' })}
        ${surface('M110 322H290V356Q200 362 110 356Z', p.shade, { texture: 'knit', volume: 'flat' })}
        ${Array.from({ length: 18 }, (_, i) => `<path d="M${116 + i * 10} 326V354" stroke="#000" stroke-opacity=".1" stroke-width="2"/>`).join('')}
        <path d="${neck}" fill="none" stroke="${p.shade}" stroke-width="12" stroke-linejoin="round"/>
        ${front}
        <path d="M118 180Q160 240 140 300M282 180Q240 250 262 316" stroke="${p.deep}" stroke-opacity=".06" stroke-width="8" fill="none" stroke-linecap="round"/>`,
    };
  };
}

/** Ribbed beanie with a turned-up cuff and a small woven label. */
export const beanie: Drawer = (p) => {
  const ribs = Array.from({ length: 13 }, (_, i) => {
    const x = 128 + i * 12;
    return `<path d="M${x} 262Q${200 + (x - 200) * 0.55} 170 200 122" stroke="#000" stroke-opacity=".08" stroke-width="3" fill="none"/>`;
  }).join('');
  return {
    pose: 'stand',
    footprint: 180,
    focus: [200, 290],
    zoom: 1.1,
    svg: `
      ${surface('M122 268Q116 124 200 118Q284 124 278 268Z', p.base, { texture: 'knit' })}
      ${ribs}
      ${surface('M112 262Q200 250 288 262L292 326Q200 344 108 326Z', p.shade, { texture: 'knit' })}
      ${Array.from({ length: 17 }, (_, i) => `<path d="M${118 + i * 10.5} 262V330" stroke="#000" stroke-opacity=".1" stroke-width="3"/>`).join('')}
      ${surface(roundRect(236, 278, 28, 20, 2), '#efe6d6', { volume: 'flat' })}
      <path d="M242 286H258" stroke="${p.base}" stroke-width="2"/>`,
  };
};

/** Cotton bucket hat with a stitched brim. */
export const bucketHat: Drawer = (p) => ({
  pose: 'stand',
  footprint: 250,
  focus: [200, 280],
  zoom: 1.05,
  svg: `
    ${surface('M64 306Q200 350 336 306L292 262Q200 284 108 262Z', p.shade, { texture: 'fabric', volume: 'soft' })}
    ${stitch('M84 304Q200 338 316 304', p.line, 0.5)}
    ${stitch('M98 296Q200 326 302 296', p.line, 0.5)}
    ${surface('M116 268L136 168Q200 150 264 168L284 268Q200 290 116 268Z', p.base, { texture: 'fabric' })}
    ${ellipseSurface(200, 168, 64, 14, p.light, { volume: 'flat', texture: 'fabric' })}
    <path d="M116 258Q200 280 284 258" stroke="${p.deep}" stroke-width="8" opacity=".5" fill="none"/>
    ${stitch('M130 240Q200 258 270 240', p.line, 0.5)}
    <circle cx="150" cy="212" r="4" fill="${p.deep}" opacity=".6"/><circle cx="250" cy="212" r="4" fill="${p.deep}" opacity=".6"/>`,
});

/** Silk twill square scarf laid flat, with a border and a printed medallion. */
export const scarf: Drawer = (p, { seed }) => {
  const r = random(seed);
  const pale = mix(p.base, '#f6efe2', 0.7);
  const dots = Array.from({ length: 12 }, (_, i) => {
    const a = (i / 12) * Math.PI * 2;
    return `<circle cx="${(200 + Math.cos(a) * 86).toFixed(1)}" cy="${(200 + Math.sin(a) * 86).toFixed(1)}" r="8" fill="${pale}"/>`;
  }).join('');
  const waves = Array.from(
    { length: 4 },
    (_, i) =>
      `<path d="M${96} ${120 + i * 54}q26 -14 52 0t52 0t52 0t52 0" fill="none" stroke="${pale}" stroke-opacity=".35" stroke-width="3"/>`,
  ).join('');
  void r;
  return {
    pose: 'flat',
    footprint: 0,
    focus: [280, 280],
    svg: `<g transform="rotate(6 200 200)">
      ${surface(roundRect(60, 60, 280, 280, 4), p.base, { texture: 'fabric', volume: 'soft' })}
      <rect x="76" y="76" width="248" height="248" fill="none" stroke="${pale}" stroke-width="10"/>
      <rect x="92" y="92" width="216" height="216" fill="none" stroke="${pale}" stroke-width="2"/>
      ${waves}
      <circle cx="200" cy="200" r="60" fill="${p.shade}"/>
      <circle cx="200" cy="200" r="60" fill="none" stroke="${pale}" stroke-width="4"/>
      <path d="M200 150Q230 200 200 250Q170 200 200 150Z" fill="${pale}"/>
      <path d="M150 200Q200 230 250 200Q200 170 150 200Z" fill="${pale}" opacity=".6"/>
      ${dots}
      <path d="M60 60L340 340" stroke="#fff" stroke-opacity=".07" stroke-width="40"/>
      <path d="M340 60L360 34" stroke="${p.shade}" stroke-width="0"/></g>`,
  };
};

/** A pair of ribbed crew socks laid flat. */
export const socks: Drawer = (p) => {
  const sock = (dx: number, fill: string) => `<g transform="translate(${dx} 0)">
    ${surface('M0 40H78V230Q78 250 96 256L150 276Q178 290 170 318Q160 346 126 338L34 312Q0 300 0 262Z', fill, { texture: 'knit', volume: 'soft' })}
    ${surface('M0 40H78V92H0Z', mix(fill, '#000000', 0.08), { texture: 'knit', volume: 'flat' })}
    ${Array.from({ length: 8 }, (_, i) => `<path d="M${6 + i * 9.5} 42V90" stroke="#000" stroke-opacity=".12" stroke-width="2.5"/>`).join('')}
    <path d="M126 338Q160 346 170 318Q178 290 150 276L138 272Q156 300 126 338Z" fill="#000" opacity=".1"/>
    <path d="M0 262Q0 300 34 312L46 315Q14 290 24 252Z" fill="#000" opacity=".1"/></g>`;
  return {
    pose: 'flat',
    footprint: 0,
    focus: [150, 90],
    zoom: 1.05,
    svg: `${sock(84, mix(p.base, '#000000', 0.04))}${sock(176, p.base)}`,
  };
};
