import { ellipseSurface, line, MATERIAL, mix, paint, roundRect, surface } from './paint';
import type { Drawer } from './types';

/** Clay teapot: a Japanese side-handle kyusu or a round pot with a loop handle. */
export function teapotDrawer(options: { handle: 'side' | 'loop' }): Drawer {
  return (p) => {
    const handle =
      options.handle === 'side'
        ? `<g transform="rotate(-28 286 250)">${surface(roundRect(276, 238, 96, 26, 12), p.shade, { volume: 'top', texture: 'speckle' })}</g>`
        : line('M280 216Q346 214 340 268Q334 312 282 306', p.shade, 18);
    return {
      pose: 'stand',
      footprint: 190,
      focus: [170, 250],
      zoom: 1.08,
      svg: `
        ${handle}
        ${surface('M122 252Q92 246 82 208L66 192L78 186L92 196Q108 222 132 226Z', p.base, { texture: 'speckle', volume: 'top' })}
        ${surface('M106 262Q104 196 200 190Q296 196 294 262Q292 334 200 338Q108 334 106 262Z', p.base, { texture: 'speckle' })}
        <path d="M120 296Q200 320 280 296" fill="none" stroke="${p.line}" stroke-width="2" opacity=".25"/>
        ${ellipseSurface(200, 198, 62, 13, p.shade, { volume: 'flat' })}
        ${surface('M146 198Q150 168 200 166Q250 168 254 198Q200 210 146 198Z', p.base, { texture: 'speckle', volume: 'round' })}
        ${ellipseSurface(200, 164, 12, 9, p.light, { volume: 'round' })}
        <path d="M130 232Q124 262 136 296" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".18" fill="none"/>
        ${surface('M170 336H230V342H170Z', p.deep)}`,
    };
  };
}

/** Borosilicate glass teapot with an infuser and tea inside. */
export const glassTeapot: Drawer = (p) => {
  const tea = mix(MATERIAL.tea, p.base, 0.25);
  const bodyPath = 'M112 256Q110 196 200 192Q290 196 288 256Q286 334 200 338Q114 334 112 256Z';
  return {
    pose: 'stand',
    footprint: 190,
    focus: [200, 270],
    zoom: 1.08,
    svg: `
      ${line('M282 220Q340 216 336 266Q332 310 282 304', '#ffffff', 12, 0.55)}
      ${line('M282 220Q340 216 336 266Q332 310 282 304', '#9fb2ad', 3, 0.6)}
      ${line('M120 250Q90 240 74 196', '#ffffff', 14, 0.5)}
      ${line('M120 250Q90 240 74 196', '#9fb2ad', 2.5, 0.6)}
      <path d="${bodyPath}" fill="${MATERIAL.glass}" opacity=".5"/>
      <path d="M114 262Q200 276 286 262Q284 334 200 338Q116 334 114 262Z" fill="${tea}" opacity=".82"/>
      <path d="M114 262Q200 276 286 262" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="2"/>
      ${surface(roundRect(176, 190, 48, 96, 14), '#ffffff', { volume: 'round', extra: 'opacity=".35"' })}
      ${Array.from({ length: 5 }, (_, i) => `<ellipse cx="${186 + i * 7}" cy="${262 + (i % 2) * 8}" rx="6" ry="3" fill="${MATERIAL.teaLeaf}" opacity=".8"/>`).join('')}
      <path d="${bodyPath}" fill="none" stroke="#9fb2ad" stroke-width="3" opacity=".7"/>
      <path d="M132 222Q118 262 136 306" stroke="#fff" stroke-width="9" stroke-linecap="round" opacity=".7" fill="none"/>
      <path d="M262 216Q276 230 278 248" stroke="#fff" stroke-width="5" stroke-linecap="round" opacity=".6" fill="none"/>
      ${ellipseSurface(200, 192, 48, 10, '#e9f0ee', { volume: 'flat' })}
      <ellipse cx="200" cy="186" rx="30" ry="8" fill="${p.base}"/>
      ${ellipseSurface(200, 178, 11, 8, p.shade)}`,
  };
};

/** Cylindrical tea caddy with a paper label. */
export const teaTin: Drawer = (p) => {
  const body = 'M138 186V326Q138 340 200 340Q262 340 262 326V186Z';
  const label = paint(MATERIAL.paper);
  return {
    pose: 'stand',
    footprint: 140,
    focus: [200, 240],
    zoom: 1.18,
    svg: `
      ${surface(body, p.base, { texture: 'grain' })}
      ${surface('M138 226Q200 236 262 226V296Q200 306 138 296Z', label.base, { texture: 'paper' })}
      <circle cx="200" cy="252" r="14" fill="none" stroke="${p.base}" stroke-width="2.5"/>
      <path d="M186 256H214M190 262H210" stroke="${p.base}" stroke-width="2.5" stroke-linecap="round"/>
      <path d="M170 280H230M180 288H220" stroke="${p.line}" stroke-width="2" opacity=".45" stroke-linecap="round"/>
      ${surface('M132 150V192Q132 204 200 204Q268 204 268 192V150Z', p.shade, { texture: 'grain' })}
      ${ellipseSurface(200, 150, 68, 13, p.light, { volume: 'flat' })}
      <path d="M150 170Q146 250 152 320" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".22" fill="none"/>`,
  };
};

/** Stand-up pouch with a zip and a paper label. */
export const teaPouch: Drawer = (p) => {
  const body = 'M126 118H274L280 318Q282 340 260 340H140Q118 340 120 318Z';
  return {
    pose: 'stand',
    footprint: 170,
    focus: [200, 200],
    zoom: 1.05,
    svg: `
      ${surface(body, p.base, { texture: 'paper', volume: 'round' })}
      <path d="M126 118H274L275 130H125Z" fill="${p.shade}"/>
      <path d="M124 150H276" stroke="${p.shade}" stroke-width="4"/>
      <path d="M124 153H276" stroke="#fff" stroke-opacity=".25" stroke-width="1.5"/>
      <path d="M274 136L266 140L274 144" fill="none" stroke="${p.deep}" stroke-width="2"/>
      ${surface(roundRect(150, 196, 100, 104, 6), MATERIAL.paper, { texture: 'paper', volume: 'flat' })}
      <circle cx="200" cy="230" r="16" fill="none" stroke="${p.base}" stroke-width="2.5"/>
      <path d="M184 234H216M188 240H212" stroke="${p.base}" stroke-width="2.5" stroke-linecap="round"/>
      <path d="M170 266H230M176 276H224M184 286H216" stroke="${MATERIAL.ink}" stroke-width="2" opacity=".3" stroke-linecap="round"/>
      <path d="M142 170Q136 250 144 320" stroke="#fff" stroke-width="8" stroke-linecap="round" opacity=".16" fill="none"/>`,
  };
};

/** A pressed tea cake in cotton paper with a printed seal, and a few loose leaves. */
export const teaCake: Drawer = (p) => {
  const folds = Array.from({ length: 14 }, (_, i) => {
    const a = (i / 14) * Math.PI * 2;
    return `<path d="M200 272L${(200 + Math.cos(a) * 118).toFixed(1)} ${(272 + Math.sin(a) * 50).toFixed(1)}" stroke="#8a7a62" stroke-opacity=".14" stroke-width="2"/>`;
  }).join('');
  const leaves = [
    [92, 334, 20],
    [118, 338, -30],
    [300, 332, 60],
  ]
    .map(
      ([x, y, r]) =>
        `<ellipse cx="${x}" cy="${y}" rx="14" ry="5" fill="${MATERIAL.teaLeaf}" transform="rotate(${r} ${x} ${y})"/>`,
    )
    .join('');
  return {
    pose: 'stand',
    footprint: 250,
    focus: [200, 270],
    zoom: 1.3,
    svg: `
      ${surface('M78 272V292Q78 338 200 338Q322 338 322 292V272Z', mix(MATERIAL.paper, '#b8a78c', 0.18), { texture: 'paper' })}
      ${ellipseSurface(200, 272, 122, 52, MATERIAL.paper, { texture: 'paper', volume: 'soft' })}
      ${folds}
      <ellipse cx="200" cy="272" rx="24" ry="10" fill="#d9ccb6"/>
      <g transform="translate(200 262) scale(1 .42)">
        <circle r="54" fill="none" stroke="${p.base}" stroke-width="6"/>
        <circle r="44" fill="none" stroke="${p.base}" stroke-width="2"/>
        <path d="M-22 -10H22M-16 4H16M-10 18H10" stroke="${p.base}" stroke-width="6" stroke-linecap="round"/>
      </g>
      ${leaves}`,
  };
};
