/**
 * Colour helpers and the shared SVG vocabulary of the demo illustrations. Every drawing is
 * plain SVG in a 400x400 box with light falling from the top left; textures and volume
 * gradients are neutral (black/white at low opacity) so one set of defs serves every colour.
 */

export interface Paint {
  base: string;
  /** A step darker: side faces, seams. */
  shade: string;
  /** Much darker: interiors, openings. */
  deep: string;
  /** A step lighter: rims, top faces, highlights. */
  light: string;
  /** Stitches and fine details that must read on the base colour. */
  line: string;
  isDark: boolean;
}

type Rgb = [number, number, number];

function parse(hex: string): Rgb {
  const clean = hex.replace('#', '');
  const full = clean.length === 3 ? [...clean].map((c) => c + c).join('') : clean;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

function format([r, g, b]: Rgb): string {
  return `#${[r, g, b]
    .map((v) =>
      Math.round(Math.max(0, Math.min(255, v)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/** Blends `a` towards `b`; amount 0 is a, 1 is b. */
export function mix(a: string, b: string, amount: number): string {
  const [xr, xg, xb] = parse(a);
  const [yr, yg, yb] = parse(b);
  return format([xr + (yr - xr) * amount, xg + (yg - xg) * amount, xb + (yb - xb) * amount]);
}

export const darken = (hex: string, amount: number) => mix(hex, '#1a1410', amount);
export const lighten = (hex: string, amount: number) => mix(hex, '#ffffff', amount);

/** Relative luminance, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  const linear = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = parse(hex).map(linear) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function paint(hex: string): Paint {
  const isDark = luminance(hex) < 0.12;
  return {
    base: hex,
    shade: isDark ? mix(hex, '#000000', 0.25) : darken(hex, 0.16),
    deep: isDark ? mix(hex, '#000000', 0.5) : darken(hex, 0.4),
    light: lighten(hex, isDark ? 0.14 : 0.3),
    line: isDark ? lighten(hex, 0.28) : darken(hex, 0.3),
    isDark,
  };
}

/** Fixed materials that appear beside the variant colour. */
export const MATERIAL = {
  clay: '#d8c4a6',
  paper: '#f4efe6',
  kraft: '#c8a273',
  wood: '#b88a5e',
  woodDark: '#8f6640',
  brass: '#c4a062',
  leaf: '#7f9164',
  leafDark: '#5f7049',
  tea: '#b0702c',
  teaLeaf: '#6b7440',
  cream: '#efe6d6',
  ink: '#2d2a26',
  glass: '#dfe9e6',
  flame: '#f6b94a',
} as const;

/** Deterministic pseudo-random numbers so the same name always draws the same picture. */
export function random(seedText: string): () => number {
  let h = 2166136261;
  for (const ch of seedText) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  let state = h >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Texture = 'none' | 'fabric' | 'knit' | 'speckle' | 'grain' | 'weave' | 'waffle' | 'quilt' | 'paper';

/**
 * A filled surface with volume shading and an optional texture, as three stacked copies of
 * the same path. `volume` picks the lighting: round things get the cylinder gradient.
 */
export function surface(
  d: string,
  fill: string,
  options: { texture?: Texture; volume?: 'round' | 'soft' | 'flat' | 'top'; extra?: string } = {},
): string {
  const { texture = 'none', volume = 'round', extra = '' } = options;
  const overlay = volume === 'flat' ? '' : `<path d="${d}" fill="url(#vol-${volume})"/>`;
  const tex = texture === 'none' ? '' : `<path d="${d}" fill="url(#tex-${texture})"/>`;
  return `<path d="${d}" fill="${fill}" ${extra}/>${overlay}${tex}`;
}

/** Same as surface() for an ellipse. */
export function ellipseSurface(
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  fill: string,
  options: { texture?: Texture; volume?: 'round' | 'soft' | 'flat' | 'top' } = {},
): string {
  return surface(ellipsePath(cx, cy, rx, ry), fill, options);
}

export function ellipsePath(cx: number, cy: number, rx: number, ry: number): string {
  return `M${cx - rx} ${cy}a${rx} ${ry} 0 1 0 ${rx * 2} 0a${rx} ${ry} 0 1 0 ${-rx * 2} 0Z`;
}

export function roundRect(x: number, y: number, w: number, h: number, r: number): string {
  return `M${x + r} ${y}H${x + w - r}Q${x + w} ${y} ${x + w} ${y + r}V${y + h - r}Q${x + w} ${y + h} ${x + w - r} ${y + h}H${x + r}Q${x} ${y + h} ${x} ${y + h - r}V${y + r}Q${x} ${y} ${x + r} ${y}Z`;
}

/** A dashed stitch line. */
export function stitch(d: string, color: string, opacity = 0.55, width = 1.6): string {
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-dasharray="5 4" stroke-linecap="round" opacity="${opacity}"/>`;
}

export function line(d: string, color: string, width = 2, opacity = 1, extra = ''): string {
  return `<path d="${d}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round" opacity="${opacity}" ${extra}/>`;
}

/** Gradients, patterns and filters every scene may reference. */
export function sharedDefs(): string {
  const speckles = (() => {
    const r = random('speckle');
    let dots = '';
    for (let i = 0; i < 14; i++) {
      const dark = i % 3 !== 0;
      dots += `<circle cx="${(r() * 48).toFixed(1)}" cy="${(r() * 48).toFixed(1)}" r="${(0.4 + r() * 0.7).toFixed(2)}" fill="${dark ? '#2a1d12' : '#ffffff'}" opacity="${dark ? 0.28 : 0.3}"/>`;
    }
    return dots;
  })();
  const r2 = random('grain');
  const grain = Array.from(
    { length: 40 },
    (_, i) =>
      `<circle cx="${(r2() * 36).toFixed(1)}" cy="${(r2() * 36).toFixed(1)}" r="${(0.5 + r2() * 0.4).toFixed(2)}" fill="${i % 4 ? '#000' : '#fff'}" fill-opacity="${i % 4 ? 0.07 : 0.08}"/>`,
  ).join('');
  const paperDots = Array.from(
    { length: 30 },
    () =>
      `<circle cx="${(r2() * 42).toFixed(1)}" cy="${(r2() * 42).toFixed(1)}" r=".6" fill="#000" fill-opacity=".05"/>`,
  ).join('');
  return `
  <radialGradient id="soft-shadow" cx=".5" cy=".5" r=".5">
    <stop offset="0" stop-color="#2a1d12" stop-opacity=".55"/>
    <stop offset=".45" stop-color="#2a1d12" stop-opacity=".3"/>
    <stop offset="1" stop-color="#2a1d12" stop-opacity="0"/>
  </radialGradient>
  <radialGradient id="soft-light" cx=".5" cy=".5" r=".5">
    <stop offset="0" stop-color="#fff" stop-opacity=".5"/>
    <stop offset=".6" stop-color="#fff" stop-opacity=".2"/>
    <stop offset="1" stop-color="#fff" stop-opacity="0"/>
  </radialGradient>
  <linearGradient id="beam" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#fff" stop-opacity="0"/>
    <stop offset=".3" stop-color="#fff" stop-opacity=".5"/>
    <stop offset=".7" stop-color="#fff" stop-opacity=".5"/>
    <stop offset="1" stop-color="#fff" stop-opacity="0"/>
  </linearGradient>
  <linearGradient id="vol-round" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#fff" stop-opacity=".10"/>
    <stop offset=".22" stop-color="#fff" stop-opacity=".22"/>
    <stop offset=".45" stop-color="#fff" stop-opacity="0"/>
    <stop offset=".78" stop-color="#000" stop-opacity=".08"/>
    <stop offset="1" stop-color="#000" stop-opacity=".26"/>
  </linearGradient>
  <linearGradient id="vol-soft" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="#fff" stop-opacity=".16"/>
    <stop offset=".5" stop-color="#fff" stop-opacity="0"/>
    <stop offset="1" stop-color="#000" stop-opacity=".14"/>
  </linearGradient>
  <linearGradient id="vol-top" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#fff" stop-opacity=".22"/>
    <stop offset=".6" stop-color="#fff" stop-opacity="0"/>
    <stop offset="1" stop-color="#000" stop-opacity=".14"/>
  </linearGradient>
  <radialGradient id="glow" cx=".5" cy=".5" r=".5">
    <stop offset="0" stop-color="#fff6dc" stop-opacity=".95"/>
    <stop offset=".45" stop-color="#ffe7b0" stop-opacity=".45"/>
    <stop offset="1" stop-color="#ffe7b0" stop-opacity="0"/>
  </radialGradient>
  <linearGradient id="metal" x1="0" y1="0" x2="0" y2="1">
    <stop offset="0" stop-color="#fff" stop-opacity=".05"/>
    <stop offset=".28" stop-color="#fff" stop-opacity=".55"/>
    <stop offset=".42" stop-color="#fff" stop-opacity=".05"/>
    <stop offset=".8" stop-color="#000" stop-opacity=".18"/>
    <stop offset="1" stop-color="#000" stop-opacity=".3"/>
  </linearGradient>
  <pattern id="tex-fabric" width="48" height="48" patternUnits="userSpaceOnUse">
    <path d="${Array.from({ length: 16 }, (_, i) => `M0 ${i * 3 + 0.5}H48`).join('')}" stroke="#000" stroke-opacity=".045" stroke-width="1"/>
    <path d="${Array.from({ length: 16 }, (_, i) => `M${i * 3 + 1.5} 0V48`).join('')}" stroke="#fff" stroke-opacity=".05" stroke-width="1"/>
  </pattern>
  <pattern id="tex-knit" width="40" height="36" patternUnits="userSpaceOnUse">
    <path d="${Array.from({ length: 4 }, (_, r) => Array.from({ length: 4 }, (_, c) => `M${c * 10} ${r * 9 + 1}l5 6l5 -6`).join('')).join('')}" fill="none" stroke="#000" stroke-opacity=".09" stroke-width="1.4"/>
    <path d="${Array.from({ length: 4 }, (_, r) => Array.from({ length: 4 }, (_, c) => `M${c * 10} ${r * 9 + 3}l5 6l5 -6`).join('')).join('')}" fill="none" stroke="#fff" stroke-opacity=".06" stroke-width="1"/>
  </pattern>
  <pattern id="tex-speckle" width="48" height="48" patternUnits="userSpaceOnUse">${speckles}</pattern>
  <pattern id="tex-grain" width="36" height="36" patternUnits="userSpaceOnUse">${grain}</pattern>
  <pattern id="tex-weave" width="16" height="12" patternUnits="userSpaceOnUse">
    <path d="M0 3Q4 0 8 3T16 3M0 9Q4 6 8 9T16 9" fill="none" stroke="#000" stroke-opacity=".14" stroke-width="1.6"/>
    <path d="M0 5Q4 2 8 5T16 5" fill="none" stroke="#fff" stroke-opacity=".12" stroke-width="1.2"/>
  </pattern>
  <pattern id="tex-waffle" width="14" height="14" patternUnits="userSpaceOnUse">
    <rect x="2" y="2" width="10" height="10" rx="2" fill="#000" fill-opacity=".07"/>
    <path d="M0 .5H14M.5 0V14" stroke="#fff" stroke-opacity=".12"/>
  </pattern>
  <pattern id="tex-quilt" width="26" height="26" patternUnits="userSpaceOnUse">
    <path d="M0 13L13 0L26 13L13 26Z" fill="none" stroke="#000" stroke-opacity=".12" stroke-width="1.4" stroke-dasharray="3 2.5"/>
  </pattern>
  <pattern id="tex-paper" width="42" height="42" patternUnits="userSpaceOnUse">${paperDots}</pattern>
  <filter id="blur-s" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="4"/></filter>
  <filter id="blur-m" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="12"/></filter>
  <filter id="blur-l" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="26"/></filter>
  <filter id="silhouette" x="-30%" y="-30%" width="160%" height="160%">
    <feColorMatrix type="matrix" values="0 0 0 0 .12  0 0 0 0 .08  0 0 0 0 .05  0 0 0 .32 0"/>
    <feGaussianBlur stdDeviation="9"/>
  </filter>`;
}
