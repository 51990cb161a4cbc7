import { ellipseSurface, MATERIAL, mix, paint, roundRect, stitch, surface } from './paint';
import type { Drawer } from './types';

/** Linen-bound notebook with an elastic band and a ribbon. */
export const notebook: Drawer = (p) => ({
  pose: 'flat',
  footprint: 0,
  focus: [150, 140],
  svg: `<g transform="rotate(-5 200 200)">
    <path d="M240 332L240 378L252 368L264 378L264 332Z" fill="${mix(p.base, '#c9472c', 0.6)}"/>
    ${surface(roundRect(106, 60, 196, 276, 8), MATERIAL.paper, { volume: 'flat' })}
    ${surface(roundRect(100, 56, 196, 276, 8), p.base, { texture: 'fabric', volume: 'soft' })}
    ${surface('M100 64Q100 56 108 56H128V332H108Q100 332 100 324Z', p.shade, { texture: 'fabric', volume: 'flat' })}
    <rect x="268" y="56" width="10" height="276" fill="${MATERIAL.ink}" opacity=".85"/>
    <circle cx="198" cy="160" r="20" fill="none" stroke="${p.shade}" stroke-width="3"/>
    <path d="M184 164H212M188 171H208" stroke="${p.shade}" stroke-width="3" stroke-linecap="round"/></g>`,
});

/** Solid brass ballpoint pen lying diagonally. */
export const pen: Drawer = (p) => {
  const q = paint(p.base);
  return {
    pose: 'flat',
    footprint: 0,
    focus: [250, 160],
    zoom: 1.3,
    svg: `<g transform="rotate(-38 200 200)">
      ${surface('M60 190H92V210H60Q48 200 60 190Z', q.shade, { volume: 'flat' })}
      <path d="M40 200L60 192V208Z" fill="#6d6a66"/>
      ${surface('M92 188H300Q312 188 312 200Q312 212 300 212H92Z', q.base, { volume: 'flat' })}
      <path d="M92 188H300Q312 188 312 200Q312 212 300 212H92Z" fill="url(#metal)"/>
      ${surface('M230 184H320Q330 184 330 200Q330 216 320 216H230Z', q.base, { volume: 'flat' })}
      <path d="M230 184H320Q330 184 330 200Q330 216 320 216H230Z" fill="url(#metal)"/>
      ${surface('M246 178H322Q328 178 328 184V188H246Z', q.shade, { volume: 'flat' })}
      <path d="M246 178H322Q328 178 328 184V188H246Z" fill="url(#metal)"/>
      <path d="M228 184V216" stroke="${q.deep}" stroke-width="2" opacity=".5"/></g>`,
  };
};

/** Zipped canvas pencil case with a pencil peeking out. */
export const pencilCase: Drawer = (p) => ({
  pose: 'flat',
  footprint: 0,
  focus: [280, 170],
  zoom: 1.05,
  svg: `<g transform="rotate(-8 200 200)">
    <g transform="rotate(-14 300 160)">
      <rect x="250" y="150" width="120" height="14" fill="${MATERIAL.flame}"/>
      <path d="M370 150L392 157L370 164Z" fill="${MATERIAL.clay}"/><path d="M386 155L392 157L386 159Z" fill="${MATERIAL.ink}"/>
    </g>
    ${surface('M60 150Q60 132 80 132H320Q340 132 340 150V250Q340 270 320 270H80Q60 270 60 250Z', p.base, { texture: 'fabric', volume: 'soft' })}
    <path d="M64 150H336" stroke="${mix(p.base, '#3a3028', 0.5)}" stroke-width="7" stroke-dasharray="2 2"/>
    ${stitch('M70 160H330', p.line, 0.4)}
    ${surface(roundRect(70, 142, 18, 16, 3), MATERIAL.brass, { volume: 'round' })}
    ${surface('M74 156H84L88 196Q79 204 70 196Z', '#8a5a36', { volume: 'round', texture: 'grain' })}
    ${surface(roundRect(270, 222, 44, 28, 4), '#8a5a36', { volume: 'top', texture: 'grain' })}</g>`,
});

/** Open weekly planner: a week grid on the left page, notes on the right. */
export const planner: Drawer = (p) => {
  const rows = Array.from(
    { length: 7 },
    (_, i) =>
      `<path d="M92 ${106 + i * 34}H188" stroke="${p.base}" stroke-opacity=".5" stroke-width="1.5"/><circle cx="98" cy="${94 + i * 34}" r="3" fill="${p.base}"/>`,
  ).join('');
  const notes = Array.from(
    { length: 12 },
    (_, i) => `<path d="M214 ${96 + i * 20}H308" stroke="${MATERIAL.ink}" stroke-opacity=".14" stroke-width="1.2"/>`,
  ).join('');
  return {
    pose: 'flat',
    footprint: 0,
    focus: [140, 160],
    svg: `<g transform="rotate(3 200 200)">
      ${surface(roundRect(64, 64, 272, 266, 8), p.base, { texture: 'fabric', volume: 'flat' })}
      ${surface('M76 72H198Q200 72 200 76V322Q140 316 76 322Z', MATERIAL.paper, { texture: 'paper', volume: 'soft' })}
      ${surface('M202 76Q202 72 204 72H324V322Q262 316 202 322Z', MATERIAL.paper, { texture: 'paper', volume: 'soft' })}
      <path d="M200 72V322" stroke="#000" stroke-opacity=".16" stroke-width="4"/>
      ${rows}${notes}
      <path d="M214 112Q236 100 252 120T296 112" stroke="${p.base}" stroke-width="2" fill="none" opacity=".7"/>
      <path d="M198 320V372L206 364L214 372V320Z" fill="${mix(p.base, '#c9472c', 0.5)}"/></g>`,
  };
};

/** Three rolls of printed washi tape. */
export const washiTape: Drawer = (p) => {
  const roll = (cx: number, cy: number, r: number, fill: string, pattern: number) => {
    const q = paint(fill);
    const deco =
      pattern === 0
        ? Array.from({ length: 12 }, (_, i) => {
            const a = (i / 12) * Math.PI * 2;
            return `<circle cx="${(cx + Math.cos(a) * r * 0.81).toFixed(1)}" cy="${(cy + Math.sin(a) * r * 0.81).toFixed(1)}" r="${r * 0.07}" fill="#fff" opacity=".7"/>`;
          }).join('')
        : pattern === 1
          ? `<circle cx="${cx}" cy="${cy}" r="${r * 0.81}" fill="none" stroke="#fff" stroke-opacity=".6" stroke-width="${r * 0.08}" stroke-dasharray="${r * 0.12} ${r * 0.12}"/>`
          : `<circle cx="${cx}" cy="${cy}" r="${r * 0.91}" fill="none" stroke="${q.deep}" stroke-opacity=".35" stroke-width="${r * 0.05}"/><circle cx="${cx}" cy="${cy}" r="${r * 0.72}" fill="none" stroke="#fff" stroke-opacity=".5" stroke-width="${r * 0.04}"/>`;
    return `${ellipseSurface(cx, cy, r, r, q.base, { texture: 'paper', volume: 'soft' })}${deco}
      <circle cx="${cx}" cy="${cy}" r="${r * 0.62}" fill="${MATERIAL.kraft}"/><circle cx="${cx}" cy="${cy}" r="${r * 0.62}" fill="url(#vol-soft)"/>
      <circle cx="${cx}" cy="${cy}" r="${r * 0.52}" fill="${MATERIAL.cream}"/><circle cx="${cx}" cy="${cy}" r="${r * 0.52}" fill="#000" opacity=".1"/>`;
  };
  const second = mix(p.base, '#e8dcc8', 0.55);
  const third = mix(p.base, '#2d2a26', 0.35);
  return {
    pose: 'stand',
    footprint: 260,
    focus: [200, 270],
    svg: `
      <path d="M230 330L340 334L338 342L228 340Z" fill="${p.base}" opacity=".85"/>
      ${roll(128, 282, 58, second, 1)}${roll(272, 284, 56, third, 2)}${roll(200, 270, 70, p.base, 0)}`,
  };
};

/** A fan of three letterpress postcards with little landscapes. */
export const postcards: Drawer = (p) => {
  const card = (rot: number, dx: number, dy: number, sky: string, hill: string, sun: string) => `
    <g transform="translate(${dx} ${dy}) rotate(${rot} 200 200)">
      ${surface(roundRect(90, 120, 220, 150, 4), MATERIAL.paper, { texture: 'paper', volume: 'flat' })}
      <rect x="102" y="132" width="196" height="126" fill="${sky}"/>
      <circle cx="252" cy="168" r="16" fill="${sun}"/>
      <path d="M102 230Q150 170 200 214T298 196V258H102Z" fill="${hill}"/>
      <path d="M102 244Q170 212 298 236V258H102Z" fill="${mix(hill, '#000000', 0.15)}"/></g>`;
  const base = p.base;
  return {
    pose: 'flat',
    footprint: 0,
    focus: [180, 200],
    svg: `${card(-14, -20, -24, mix(base, '#ffffff', 0.75), mix(base, '#7f9164', 0.5), '#f2c27a')}
      ${card(8, 26, 6, mix(base, '#ffffff', 0.82), mix(base, '#34506b', 0.35), '#e9a06a')}
      ${card(-3, 0, 40, mix(base, '#ffffff', 0.7), base, '#f6d8a0')}`,
  };
};
