import { randomInt } from 'node:crypto';
import sharp from 'sharp';

/**
 * Digit glyphs drawn as strokes in a 60x100 box, two hands per digit. Only M, L, Q and C
 * commands, so the numbers of a path are coordinate pairs that can be moved one by one.
 */
const GLYPHS: Record<string, [string, ...string[]]> = {
  '0': [
    'M30 5 C2 5 2 95 30 95 C58 95 58 5 30 5',
    'M30 4 C8 2 4 50 10 75 C16 100 50 100 54 70 C60 40 52 4 30 4 M44 22 L16 78',
  ],
  '1': ['M22 17 L34 5 L34 95', 'M24 15 L34 5 L34 95 M20 95 L48 95'],
  '2': ['M8 25 C8 0 52 0 52 25 C52 45 20 60 8 95 L54 95', 'M10 22 Q30 -5 50 22 Q55 40 10 95 L55 92'],
  '3': ['M8 14 Q30 -5 50 18 Q55 42 26 48 Q58 52 52 80 Q40 104 8 88', 'M10 5 L50 5 L26 42 Q58 45 52 75 Q42 102 8 88'],
  '4': ['M42 95 L42 5 L6 68 L56 68', 'M14 5 L6 60 L54 60 M42 30 L42 95'],
  '5': [
    'M50 5 L14 5 L10 45 Q30 32 48 48 Q60 70 46 88 Q28 102 8 88',
    'M52 6 L16 8 L12 44 C40 30 58 52 52 74 C46 98 18 100 8 84',
  ],
  '6': [
    'M48 10 Q30 0 18 20 Q4 45 8 70 Q14 98 32 95 Q54 92 52 68 Q48 45 28 46 Q12 48 9 62',
    'M46 4 L14 58 C4 80 16 96 30 96 C48 96 54 80 50 66 C44 48 20 48 14 60',
  ],
  '7': ['M6 5 L54 5 L24 95', 'M6 8 L54 5 L24 95 M16 50 L46 50'],
  '8': [
    'M30 48 C4 40 8 4 30 5 C52 4 56 40 30 48 C2 56 4 95 30 95 C56 95 58 56 30 48',
    'M30 46 C12 42 10 8 30 6 C50 6 48 40 30 46 C8 52 6 94 30 94 C52 94 52 52 30 46',
  ],
  '9': [
    'M50 35 Q48 5 28 5 Q8 6 8 30 Q10 54 30 52 Q46 50 50 35 Q52 70 40 95',
    'M50 30 C50 0 8 0 8 28 C8 55 50 55 50 30 L46 95',
  ],
};

const between = (min: number, max: number) => min + (randomInt(0, 1_000_001) / 1_000_000) * (max - min);
const pick = <T>(items: readonly [T, ...T[]]): T => items[randomInt(0, items.length)] ?? items[0];

type Point = [number, number];
type Warp = (point: Point) => Point;

/** Moves every coordinate pair of a path (M, L, Q and C take only pairs) through `map`. */
function mapPath(path: string, map: (point: Point) => Point): string {
  return path.replace(/(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)/g, (_whole, x: string, y: string) => {
    const [mx, my] = map([Number(x), Number(y)]);
    return `${mx.toFixed(1)} ${my.toFixed(1)}`;
  });
}

/**
 * A smooth random wave over the whole picture, applied to the coordinates themselves: it bends
 * glyphs and crossing curves alike (what an SVG displacement filter would do, at no render cost).
 */
function randomWarp(): Warp {
  const [ax, ay] = [between(5, 9), between(5, 9)];
  const [fx, fy] = [between(0.025, 0.045), between(0.025, 0.045)];
  const [px, py] = [between(0, Math.PI * 2), between(0, Math.PI * 2)];
  return ([x, y]) => [x + ax * Math.sin(y * fy + px), y + ay * Math.sin(x * fx + py)];
}

/** Places a glyph: jitter each point, then scale, skew, rotate, move, and bend with the picture's wave. */
function placeGlyph(
  path: string,
  place: { x: number; y: number; scale: number; rotate: number; skew: number; jitter: number },
  warp: Warp,
): string {
  const cos = Math.cos(place.rotate);
  const sin = Math.sin(place.rotate);
  const skew = Math.tan(place.skew);
  return mapPath(path, ([gx, gy]) => {
    const x0 = (gx - 30 + between(-place.jitter, place.jitter)) * place.scale;
    const y0 = (gy - 50 + between(-place.jitter, place.jitter)) * place.scale;
    const x1 = x0 + skew * y0;
    return warp([place.x + x1 * cos - y0 * sin, place.y + x1 * sin + y0 * cos]);
  });
}

const inkColor = () => `hsl(${randomInt(0, 360)} ${randomInt(45, 75)}% ${randomInt(18, 34)}%)`;
const paleColor = () => `hsl(${randomInt(0, 360)} ${randomInt(30, 60)}% ${randomInt(84, 94)}%)`;

function curveAcross(width: number, height: number): string {
  const y = () => between(30, height - 30);
  return `M${between(-20, 20).toFixed(0)} ${y().toFixed(0)} C${between(60, 120).toFixed(0)} ${y().toFixed(0)} ${between(180, 240).toFixed(0)} ${y().toFixed(0)} ${(width + between(-20, 20)).toFixed(0)} ${y().toFixed(0)}`;
}

/** The SVG of a captcha: jittered, rotated and skewed strokes bent by one wave, crossing curves, decoys and dots. */
export function captchaSvg(answer: string, size = 300): string {
  const warp = randomWarp();
  const slot = (size - 40) / answer.length;
  const degrees = (value: number) => (value * Math.PI) / 180;
  const glyphs = [...answer].map((digit, index) => {
    const path = placeGlyph(
      pick(GLYPHS[digit] ?? GLYPHS['0']!),
      {
        x: 20 + slot * (index + 0.5) + between(-6, 6),
        y: size / 2 + between(-45, 45),
        scale: between(0.85, 1.2) * Math.min(1, slot / 58),
        rotate: degrees(between(-22, 22)),
        skew: degrees(between(-14, 14)),
        jitter: 3.5,
      },
      warp,
    );
    const hollow = randomInt(0, 3) === 0 ? `<path d="${path}" stroke="${paleColor()}" stroke-width="2.5"/>` : '';
    return `<path d="${path}" stroke="${inkColor()}" stroke-width="${between(7, 10).toFixed(1)}"/>${hollow}`;
  });
  const crossing = Array.from({ length: randomInt(5, 8) }, () => {
    const width = between(1.5, 4).toFixed(1);
    return `<path d="${mapPath(curveAcross(size, size), warp)}" stroke="${inkColor()}" stroke-width="${width}" opacity="${between(0.55, 0.9).toFixed(2)}"/>`;
  });
  const decoys = Array.from({ length: 3 }, () => {
    const place = {
      x: between(0, size),
      y: between(0, size),
      scale: between(0.25, 0.4),
      rotate: between(0, Math.PI * 2),
      skew: 0,
      jitter: 6,
    };
    return `<path d="${placeGlyph(pick(GLYPHS[String(randomInt(0, 10))] ?? GLYPHS['0']!), place, warp)}" stroke="${inkColor()}" stroke-width="4" opacity="0.25"/>`;
  });
  const dots = Array.from(
    { length: 220 },
    () =>
      `<circle cx="${between(0, size).toFixed(0)}" cy="${between(0, size).toFixed(0)}" r="${between(0.8, 2.6).toFixed(1)}" fill="${randomInt(0, 2) ? inkColor() : paleColor()}"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${paleColor()}"/><stop offset="1" stop-color="${paleColor()}"/></linearGradient></defs>
<rect width="${size}" height="${size}" fill="url(#bg)"/>
<g fill="none" stroke-linecap="round" stroke-linejoin="round">${decoys.join('')}${glyphs.join('')}${crossing.join('')}</g>
${dots.join('')}
</svg>`;
}

/** A 300x300 PNG as a `data:` URL, what the captcha dialog shows (SPEC section 2). */
export async function captchaDataUrl(answer: string): Promise<string> {
  const png = await sharp(Buffer.from(captchaSvg(answer)))
    .png({ compressionLevel: 6 })
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}
