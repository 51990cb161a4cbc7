import { ellipseSurface, line, MATERIAL, mix, paint, surface } from './paint';
import type { Drawer } from './types';

/** Glazed stoneware mug with a raw clay foot. */
export const mug: Drawer = (p) => {
  const body = 'M128 180V316Q128 340 152 340H242Q266 340 266 316V180Z';
  const foot = 'M128 318Q128 340 152 340H242Q266 340 266 318V312H128Z';
  return {
    pose: 'stand',
    footprint: 150,
    focus: [250, 230],
    zoom: 1.25,
    svg: `
      ${line('M262 206Q318 200 318 252Q318 300 262 300', p.shade, 20)}
      ${line('M262 206Q318 200 318 252Q318 300 262 300', '#fff', 4, 0.18, 'transform="translate(-3 -4)"')}
      ${surface(body, p.base, { texture: 'speckle' })}
      ${surface(foot, MATERIAL.clay, { texture: 'speckle' })}
      <path d="M128 312Q150 306 170 311T214 309T266 312" fill="none" stroke="${p.shade}" stroke-width="3" opacity=".5"/>
      ${ellipseSurface(197, 180, 69, 15, p.light, { volume: 'flat' })}
      <ellipse cx="197" cy="182" rx="60" ry="11" fill="${p.deep}"/>
      <ellipse cx="197" cy="186" rx="52" ry="7" fill="#000" opacity=".15"/>
      <path d="M142 200Q140 260 148 300" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".18" fill="none"/>`,
  };
};

/** Rice bowl on a foot ring. */
export const bowl: Drawer = (p) => {
  const body = 'M88 232Q92 318 168 330H232Q308 318 312 232Z';
  return {
    pose: 'stand',
    footprint: 120,
    focus: [200, 260],
    zoom: 1.12,
    svg: `
      ${surface('M166 326H234V340H166Z', MATERIAL.clay, { texture: 'speckle' })}
      ${surface(body, p.base, { texture: 'speckle' })}
      ${ellipseSurface(200, 232, 112, 24, p.light, { volume: 'flat' })}
      <ellipse cx="200" cy="234" rx="102" ry="19" fill="${p.shade}"/>
      <path d="M104 238Q200 270 296 238Q200 252 104 238Z" fill="#000" opacity=".12"/>
      <path d="M104 250Q120 300 168 318" stroke="#fff" stroke-width="6" stroke-linecap="round" opacity=".18" fill="none"/>
      <path d="M92 240Q200 262 308 240" fill="none" stroke="${p.line}" stroke-width="2" opacity=".25"/>`,
  };
};

/** Two stacked dinner plates seen from a low angle. */
export const plate: Drawer = (p) => {
  const one = (cy: number) => `
      <ellipse cx="200" cy="${cy + 10}" rx="150" ry="44" fill="${p.shade}"/>
      ${ellipseSurface(200, cy, 152, 44, p.base, { texture: 'speckle', volume: 'soft' })}
      <ellipse cx="200" cy="${cy + 3}" rx="104" ry="28" fill="${p.shade}" opacity=".45"/>
      <ellipse cx="200" cy="${cy + 5}" rx="98" ry="25" fill="${p.base}"/>
      <ellipse cx="200" cy="${cy + 5}" rx="98" ry="25" fill="url(#tex-speckle)"/>
      <path d="M90 ${cy - 14}Q140 ${cy - 40} 230 ${cy - 42}" stroke="#fff" stroke-width="5" stroke-linecap="round" opacity=".25" fill="none"/>`;
  return {
    pose: 'stand',
    footprint: 280,
    focus: [150, 262],
    svg: `${one(296)}${one(270)}`,
  };
};

/** Bud vase with a dried stem. */
export const vase: Drawer = (p) => {
  const body =
    'M184 128V156Q184 174 166 192Q126 228 130 280Q136 340 200 340Q264 340 270 280Q274 228 234 192Q216 174 216 156V128Z';
  return {
    pose: 'stand',
    footprint: 130,
    focus: [200, 240],
    zoom: 1.05,
    svg: `
      ${line('M204 132Q210 80 236 40', MATERIAL.woodDark, 2.5)}
      ${line('M208 100Q190 84 176 84', MATERIAL.woodDark, 2)}
      <ellipse cx="238" cy="42" rx="9" ry="5" fill="${MATERIAL.kraft}" transform="rotate(-50 238 42)"/>
      <ellipse cx="222" cy="62" rx="8" ry="4" fill="${MATERIAL.kraft}" transform="rotate(30 222 62)"/>
      <ellipse cx="176" cy="84" rx="9" ry="4.5" fill="${MATERIAL.kraft}" transform="rotate(10 176 84)"/>
      ${surface(body, p.base, { texture: 'speckle' })}
      ${ellipseSurface(200, 128, 17, 5, p.light, { volume: 'flat' })}
      <ellipse cx="200" cy="129" rx="11" ry="3" fill="${p.deep}"/>
      <path d="M150 230Q140 270 156 310" stroke="#fff" stroke-width="7" stroke-linecap="round" opacity=".2" fill="none"/>`,
  };
};

/** Ridged planter with a leafy plant. */
export const planter: Drawer = (p, { seed }) => {
  const leafSpots: Array<[dx: number, y: number, rotation: number]> = [
    [-62, 150, -40],
    [-30, 120, -18],
    [0, 102, 0],
    [30, 118, 20],
    [60, 148, 42],
    [-12, 140, -8],
    [18, 142, 10],
  ];
  const leaves = leafSpots
    .map(([dx, y, rot], i) => {
      const color = i % 2 ? MATERIAL.leaf : MATERIAL.leafDark;
      return `<g transform="translate(${200 + dx} ${y}) rotate(${rot})">
        <path d="M0 0Q-22 -40 0 -80Q22 -40 0 0Z" fill="${color}"/><path d="M0 -4V-74" stroke="#fff" stroke-opacity=".25" stroke-width="1.5"/></g>`;
    })
    .join('');
  const stems = [-62, -30, 0, 30, 60, -12, 18]
    .map((dx) => line(`M200 200Q${200 + dx / 2} 180 ${200 + dx} 150`, MATERIAL.leafDark, 3))
    .join('');
  const ridges = Array.from({ length: 9 }, (_, i) => {
    const x = 134 + i * 16.5;
    return `<path d="M${x} 206L${x + (x - 200) * -0.08 + (x - 200) * 0} 334" stroke="#000" stroke-opacity=".08" stroke-width="3"/>`;
  }).join('');
  void seed;
  return {
    pose: 'stand',
    footprint: 140,
    focus: [200, 260],
    svg: `
      ${stems}${leaves}
      ${surface('M124 204L140 330Q142 340 152 340H248Q258 340 260 330L276 204Z', p.base, { texture: 'speckle' })}
      ${ridges}
      ${ellipseSurface(200, 204, 78, 13, p.light, { volume: 'flat' })}
      <ellipse cx="200" cy="206" rx="68" ry="8" fill="#5a4030"/>`,
  };
};

/** A pair (or trio) of small handleless tea cups. */
export function cupsDrawer(options: { handle: boolean }): Drawer {
  return (p) => {
    const cup = (x: number, y: number, s: number, fill: string) => {
      const q = paint(fill);
      const handle = options.handle
        ? line(`M${x + 40 * s} ${y - 44 * s}Q${x + 66 * s} ${y - 42 * s} ${x + 40 * s} ${y - 18 * s}`, q.shade, 9 * s)
        : '';
      return `<g>
        ${handle}
        ${surface(`M${x - 46 * s} ${y - 70 * s}Q${x - 44 * s} ${y - 12 * s} ${x - 20 * s} ${y - 4 * s}H${x + 20 * s}Q${x + 44 * s} ${y - 12 * s} ${x + 46 * s} ${y - 70 * s}Z`, q.base, { texture: 'speckle' })}
        ${surface(`M${x - 20 * s} ${y - 6 * s}H${x + 20 * s}V${y}H${x - 20 * s}Z`, MATERIAL.clay)}
        ${ellipseSurface(x, y - 70 * s, 46 * s, 10 * s, q.light, { volume: 'flat' })}
        <ellipse cx="${x}" cy="${y - 69 * s}" rx="${40 * s}" ry="${7 * s}" fill="${options.handle ? '#4a2d1a' : mix(MATERIAL.tea, '#ffffff', 0.15)}"/>
      </g>`;
    };
    const second = p.isDark ? mix(p.base, '#ffffff', 0.12) : mix(p.base, '#ffffff', 0.25);
    return {
      pose: 'stand',
      footprint: 260,
      focus: [200, 280],
      zoom: 1.15,
      svg: `${cup(136, 318, 1.05, second)}${cup(262, 324, 1.05, p.base)}${cup(196, 340, 1.15, p.base)}`,
    };
  };
}
