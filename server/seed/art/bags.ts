import { ellipseSurface, line, MATERIAL, mix, roundRect, stitch, surface } from './paint';
import type { Drawer } from './types';

const LEATHER = '#8a5a36';

/** Canvas market tote with webbing handles and a leather patch. */
export const tote: Drawer = (p) => ({
  pose: 'stand',
  footprint: 210,
  focus: [200, 230],
  svg: `
    ${line('M138 170Q140 70 178 70Q204 72 204 170', mix(p.base, '#000000', 0.18), 12)}
    ${line('M196 170Q196 80 226 78Q262 80 262 170', p.shade, 12)}
    ${surface('M100 168H300L310 332Q310 340 302 340H98Q90 340 90 332Z', p.base, { texture: 'fabric' })}
    <path d="M100 168H300L301 186H99Z" fill="${p.shade}"/>
    ${stitch('M100 190H300', p.line, 0.45)}
    ${surface(roundRect(176, 232, 48, 30, 4), LEATHER, { texture: 'grain', volume: 'top' })}
    ${stitch('M181 237H219V257H181Z', '#e8d5bd', 0.6, 1.2)}
    <path d="M120 200Q112 260 118 320" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".15" fill="none"/>
    <path d="M300 200Q270 270 296 330" stroke="#000" stroke-width="10" stroke-linecap="round" opacity=".07" fill="none"/>`,
});

/** Waxed canvas rucksack with a leather-strapped flap. */
export const backpack: Drawer = (p) => ({
  pose: 'stand',
  footprint: 200,
  focus: [170, 180],
  svg: `
    ${line('M176 88Q200 54 224 88', LEATHER, 8)}
    ${surface('M110 336V150Q110 84 200 84Q290 84 290 150V336Q290 340 284 340H116Q110 340 110 336Z', p.base, { texture: 'fabric' })}
    ${surface('M112 150Q112 94 200 94Q288 94 288 150V200Q200 216 112 200Z', p.shade, { texture: 'fabric', volume: 'top' })}
    ${stitch('M122 196Q200 210 278 196', p.light, 0.5)}
    ${surface(roundRect(136, 244, 128, 80, 14), p.shade, { texture: 'fabric', volume: 'soft' })}
    ${stitch('M146 254H254', p.light, 0.45)}
    ${surface(roundRect(150, 150, 16, 112, 4), LEATHER, { texture: 'grain', volume: 'round' })}
    ${surface(roundRect(234, 150, 16, 112, 4), LEATHER, { texture: 'grain', volume: 'round' })}
    ${surface(roundRect(146, 206, 24, 18, 3), MATERIAL.brass, { volume: 'round' })}
    ${surface(roundRect(230, 206, 24, 18, 3), MATERIAL.brass, { volume: 'round' })}
    <rect x="150" y="210" width="16" height="10" fill="${LEATHER}"/><rect x="234" y="210" width="16" height="10" fill="${LEATHER}"/>
    <path d="M124 160Q118 250 124 326" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".14" fill="none"/>`,
});

/** Leather saddle crossbody bag with a long strap. */
export const crossbody: Drawer = (p) => ({
  pose: 'stand',
  footprint: 200,
  focus: [200, 250],
  svg: `
    ${line('M112 208Q120 40 200 36Q280 40 288 208', p.shade, 7)}
    ${surface('M104 196H296V252Q296 340 200 340Q104 340 104 252Z', p.base, { texture: 'grain' })}
    ${surface('M100 192H300V228Q300 300 200 304Q100 300 100 228Z', p.shade, { texture: 'grain', volume: 'soft' })}
    ${stitch('M112 200H288V228Q288 290 200 294Q112 290 112 228Z', mix(p.base, '#f0e2cc', 0.6), 0.55, 1.4)}
    ${ellipseSurface(200, 284, 10, 10, MATERIAL.brass, { volume: 'round' })}
    ${surface(roundRect(98, 190, 14, 26, 3), MATERIAL.brass, { volume: 'round' })}
    ${surface(roundRect(288, 190, 14, 26, 3), MATERIAL.brass, { volume: 'round' })}
    <path d="M124 214Q120 260 150 292" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".14" fill="none"/>`,
});

/** Quilted zip pouch. */
export const pouch: Drawer = (p) => ({
  pose: 'stand',
  footprint: 230,
  focus: [270, 220],
  zoom: 1.1,
  svg: `
    ${surface('M92 214Q92 196 110 196H290Q308 196 308 214V320Q308 340 288 340H112Q92 340 92 320Z', p.base, { texture: 'quilt', volume: 'soft' })}
    <path d="M96 206H304" stroke="${mix(p.base, '#3a3028', 0.45)}" stroke-width="7" stroke-dasharray="2 2"/>
    ${surface(roundRect(260, 196, 16, 12, 3), MATERIAL.brass, { volume: 'round' })}
    ${surface('M264 206H272L276 246Q268 252 260 246Z', LEATHER, { volume: 'round', texture: 'grain' })}
    <path d="M110 230Q104 280 112 326" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".15" fill="none"/>`,
});

/** Leather card wallet laid flat, a card peeking out. */
export const wallet: Drawer = (p) => ({
  pose: 'flat',
  footprint: 0,
  focus: [200, 170],
  zoom: 1.25,
  svg: `<g transform="rotate(-6 200 200)">
    ${surface(roundRect(110, 110, 180, 124, 10).replace(/Z$/, 'Z'), MATERIAL.cream, { volume: 'flat' })}
    ${surface(roundRect(120, 96, 160, 100, 8), '#c9d4d8', { volume: 'soft' })}
    ${surface('M104 150Q104 136 118 136H282Q296 136 296 150V280Q296 294 282 294H118Q104 294 104 280Z', p.base, { texture: 'grain', volume: 'soft' })}
    ${surface('M104 170Q200 196 296 170V280Q296 294 282 294H118Q104 294 104 280Z', p.shade, { texture: 'grain', volume: 'soft' })}
    ${stitch('M114 146H286V284H114Z', mix(p.base, '#f0e2cc', 0.55), 0.6, 1.4)}
    <path d="M104 170Q200 196 296 170" stroke="${p.deep}" stroke-width="2" fill="none" opacity=".6"/></g>`,
});
