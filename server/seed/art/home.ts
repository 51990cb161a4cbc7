import { ellipseSurface, line, MATERIAL, mix, paint, roundRect, stitch, surface } from './paint';
import type { Drawer } from './types';

/** Table lamp: glazed gourd base under a pleated paper shade, switched on. */
export const lamp: Drawer = (p) => {
  const shade = '#f7f0e2';
  const pleats = Array.from({ length: 11 }, (_, i) => {
    const t = i / 10;
    const top = 150 + t * 100;
    const bottom = 112 + t * 176;
    return `<path d="M${top} 92L${bottom} 196" stroke="#c9b89c" stroke-opacity="${i % 2 ? 0.35 : 0.18}" stroke-width="2"/>`;
  }).join('');
  return {
    pose: 'stand',
    footprint: 140,
    focus: [200, 170],
    zoom: 0.98,
    svg: `
      <ellipse cx="200" cy="150" rx="150" ry="120" fill="url(#glow)"/>
      ${surface('M176 200H224V226H176Z', MATERIAL.brass)}
      ${surface('M188 222Q146 236 140 282Q136 338 200 340Q264 338 260 282Q254 236 212 222Z', p.base, { texture: 'speckle' })}
      <path d="M160 256Q150 286 162 320" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".2" fill="none"/>
      <path d="M150 92H250L288 196H112Z" fill="${shade}"/>
      <path d="M150 92H250L288 196H112Z" fill="url(#glow)" opacity=".9"/>
      ${pleats}
      <path d="M112 196H288" stroke="#e1d2b8" stroke-width="3"/>
      <path d="M150 92H250" stroke="#e9dcc6" stroke-width="3"/>
      ${line('M260 320Q300 342 340 340', '#3a332c', 2.5, 0.6)}`,
  };
};

/** Square cushion with piped edges, standing slightly tilted. */
export const cushion: Drawer = (p) => {
  const d =
    'M96 118Q200 100 304 118Q318 114 316 132Q300 226 318 322Q320 340 302 336Q200 318 98 336Q80 340 84 322Q100 226 84 132Q82 114 96 118Z';
  return {
    pose: 'stand',
    footprint: 230,
    focus: [240, 180],
    zoom: 1.02,
    svg: `<g transform="rotate(-4 200 230)">
      ${surface(d, p.base, { texture: 'fabric', volume: 'soft' })}
      <path d="${d}" fill="none" stroke="${p.shade}" stroke-width="5"/>
      <path d="M200 130Q150 190 120 230M200 320Q260 260 290 220" stroke="${p.deep}" stroke-opacity=".14" stroke-width="4" fill="none"/>
      <ellipse cx="200" cy="226" rx="90" ry="72" fill="url(#soft-light)" opacity=".35"/>
      ${stitch('M112 140Q200 124 288 140', p.line, 0.4)}
      </g>`,
  };
};

/** A folded waffle-weave throw with fringe. */
export const blanket: Drawer = (p) => {
  const fringe = Array.from({ length: 15 }, (_, i) =>
    line(`M${316 + (i % 2) * 2} ${214 + i * 8}l${16 + (i % 3) * 3} ${2 + (i % 2)}`, p.shade, 2.4),
  ).join('');
  const layer = (y: number, h: number, fill: string) =>
    surface(roundRect(84, y, 236, h, 16), fill, { texture: 'waffle', volume: 'top' });
  return {
    pose: 'stand',
    footprint: 260,
    focus: [260, 250],
    svg: `
      ${fringe}
      ${layer(290, 50, p.shade)}
      ${layer(252, 50, p.base)}
      ${layer(212, 52, p.base)}
      ${surface('M96 212Q120 170 170 168H300Q330 170 320 212Z', p.light, { texture: 'waffle', volume: 'top' })}
      <path d="M90 252Q200 262 314 252M90 292Q200 302 314 292" stroke="${p.deep}" stroke-opacity=".25" stroke-width="3" fill="none"/>`,
  };
};

/** Soy candle in a glazed vessel, lit. */
export const candle: Drawer = (p) => {
  return {
    pose: 'stand',
    footprint: 150,
    focus: [200, 210],
    zoom: 1.2,
    svg: `
      <ellipse cx="200" cy="150" rx="60" ry="70" fill="url(#glow)"/>
      ${surface('M130 196V320Q130 340 150 340H250Q270 340 270 320V196Z', p.base, { texture: 'speckle' })}
      ${ellipseSurface(200, 196, 70, 14, p.light, { volume: 'flat' })}
      <ellipse cx="200" cy="198" rx="62" ry="10" fill="${MATERIAL.cream}"/>
      <ellipse cx="200" cy="200" rx="62" ry="8" fill="#000" opacity=".06"/>
      ${surface(roundRect(160, 250, 80, 52, 4), MATERIAL.paper, { texture: 'paper', volume: 'flat' })}
      <path d="M176 268H224M184 280H216" stroke="${p.line}" stroke-width="2.2" stroke-linecap="round" opacity=".55"/>
      ${line('M200 198V184', '#3a2b20', 2.5)}
      <path d="M200 150Q212 170 206 182Q200 190 194 182Q188 170 200 150Z" fill="${MATERIAL.flame}"/>
      <path d="M200 166Q205 176 202 182Q200 186 198 182Q195 176 200 166Z" fill="#fff3c9"/>
      <path d="M144 214Q140 262 148 318" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".2" fill="none"/>`,
  };
};

/** Reed diffuser: a square glass bottle of scented oil with rattan reeds. */
export const diffuser: Drawer = (p) => {
  const reeds = [-26, -14, -4, 6, 16, 28]
    .map((a, i) => {
      const rad = (a * Math.PI) / 180;
      const x = 200 + Math.sin(rad) * 210;
      const y = 176 - Math.cos(rad) * 200;
      return line(
        `M${196 + i * 2} 176L${x.toFixed(1)} ${y.toFixed(1)}`,
        i % 2 ? MATERIAL.woodDark : MATERIAL.wood,
        3.5,
      );
    })
    .join('');
  const oil = mix(p.base, MATERIAL.tea, 0.3);
  return {
    pose: 'stand',
    footprint: 150,
    focus: [200, 270],
    zoom: 1.05,
    svg: `
      ${reeds}
      <path d="M128 222Q128 206 146 206H254Q272 206 272 222V326Q272 340 258 340H142Q128 340 128 326Z" fill="${MATERIAL.glass}" opacity=".55"/>
      <path d="M132 240H268V324Q268 336 256 336H144Q132 336 132 324Z" fill="${oil}" opacity=".75"/>
      <path d="M132 240H268" stroke="#fff" stroke-opacity=".5" stroke-width="2"/>
      <path d="M128 222Q128 206 146 206H254Q272 206 272 222V326Q272 340 258 340H142Q128 340 128 326Z" fill="none" stroke="#b9c8c3" stroke-width="3"/>
      ${surface(roundRect(160, 262, 80, 50, 4), MATERIAL.paper, { texture: 'paper', volume: 'flat' })}
      <path d="M176 280H224M184 292H216" stroke="${p.shade}" stroke-width="2.2" stroke-linecap="round"/>
      ${surface('M180 170H220V208H180Z', MATERIAL.brass, { volume: 'round' })}
      <path d="M142 222Q138 280 144 326" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".55" fill="none"/>`,
  };
};

/** Stack of three folded linen napkins seen from above. */
export const napkins: Drawer = (p) => {
  const napkin = (x: number, y: number, rot: number, fill: string) => `
    <g transform="rotate(${rot} ${x + 110} ${y + 110})">
      ${surface(roundRect(x, y, 220, 220, 6), fill, { texture: 'fabric', volume: 'soft' })}
      ${stitch(`M${x + 14} ${y + 14}H${x + 206}V${y + 206}H${x + 14}Z`, paint(fill).line, 0.45)}
      <path d="M${x + 110} ${y}V${y + 220}" stroke="#000" stroke-opacity=".07" stroke-width="6"/>
      <path d="M${x + 112} ${y}V${y + 220}" stroke="#fff" stroke-opacity=".12" stroke-width="2"/>
    </g>`;
  return {
    pose: 'flat',
    footprint: 0,
    focus: [200, 220],
    svg: `${napkin(70, 70, -8, mix(p.base, '#ffffff', 0.12))}${napkin(96, 92, 4, p.shade)}${napkin(84, 104, -1, p.base)}`,
  };
};

/** Round woven rattan basket with cut-out handles. */
export const basket: Drawer = (p) => {
  const weaveColor = mix(MATERIAL.kraft, p.base, 0.25);
  return {
    pose: 'stand',
    footprint: 230,
    focus: [200, 260],
    svg: `
      ${surface('M86 170L106 324Q108 340 124 340H276Q292 340 294 324L314 170Z', weaveColor, { texture: 'weave' })}
      ${surface('M86 170L106 324Q108 340 124 340H276Q292 340 294 324L314 170Z', weaveColor, { texture: 'weave', volume: 'flat', extra: 'opacity=".0"' })}
      <path d="M84 170H316" stroke="${mix(weaveColor, '#5a3c22', 0.35)}" stroke-width="12" stroke-linecap="round"/>
      <path d="M84 166H316" stroke="#fff" stroke-opacity=".25" stroke-width="3" stroke-linecap="round"/>
      ${surface(roundRect(110, 190, 40, 14, 7), '#5a4030', { volume: 'flat' })}
      ${surface(roundRect(250, 190, 40, 14, 7), '#5a4030', { volume: 'flat' })}
      <path d="M96 250Q200 262 304 250M100 296Q200 308 300 296" stroke="#5a3c22" stroke-opacity=".25" stroke-width="4" fill="none"/>`,
  };
};
