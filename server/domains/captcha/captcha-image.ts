import { randomInt } from 'node:crypto';
import sharp from 'sharp';

/**
 * Digit glyphs drawn as strokes in a 60x100 box, two hands per digit. Only M, L, Q and C
 * commands, so every number in a path is a coordinate and can be jittered.
 */
const GLYPHS: Record<string, string[]> = {
  '0': ['M30 5 C2 5 2 95 30 95 C58 95 58 5 30 5', 'M30 4 C8 2 4 50 10 75 C16 100 50 100 54 70 C60 40 52 4 30 4 M44 22 L16 78'],
  '1': ['M16 24 L34 5 L34 95', 'M20 20 L34 5 L34 95 M18 95 L50 95'],
  '2': ['M8 25 C8 0 52 0 52 25 C52 45 20 60 8 95 L54 95', 'M10 22 Q30 -5 50 22 Q55 40 10 95 L55 92'],
  '3': ['M8 14 Q30 -5 50 18 Q55 42 26 48 Q58 52 52 80 Q40 104 8 88', 'M10 5 L50 5 L26 42 Q58 45 52 75 Q42 102 8 88'],
  '4': ['M42 95 L42 5 L6 68 L56 68', 'M14 5 L6 60 L54 60 M42 30 L42 95'],
  '5': ['M50 5 L14 5 L10 45 Q30 32 48 48 Q60 70 46 88 Q28 102 8 88', 'M52 6 L16 8 L12 44 C40 30 58 52 52 74 C46 98 18 100 8 84'],
  '6': ['M48 10 Q30 0 18 20 Q4 45 8 70 Q14 98 32 95 Q54 92 52 68 Q48 45 28 46 Q12 48 9 62', 'M46 4 L14 58 C4 80 16 96 30 96 C48 96 54 80 50 66 C44 48 20 48 14 60'],
  '7': ['M6 5 L54 5 L24 95', 'M6 8 L54 5 L24 95 M16 50 L46 50'],
  '8': ['M30 48 C4 40 8 4 30 5 C52 4 56 40 30 48 C2 56 4 95 30 95 C56 95 58 56 30 48', 'M30 46 C12 42 10 8 30 6 C50 6 48 40 30 46 C8 52 6 94 30 94 C52 94 52 52 30 46'],
  '9': ['M50 35 Q48 5 28 5 Q8 6 8 30 Q10 54 30 52 Q46 50 50 35 Q52 70 40 95', 'M50 30 C50 0 8 0 8 28 C8 55 50 55 50 30 L46 95'],
};

const between = (min: number, max: number) => min + (randomInt(0, 1_000_001) / 1_000_000) * (max - min);
const pick = <T>(items: readonly T[]): T => items[randomInt(0, items.length)];

function jitter(path: string, amount: number): string {
  return path.replace(/-?\d+(\.\d+)?/g, (value) => (Number(value) + between(-amount, amount)).toFixed(1));
}

const inkColor = () => `hsl(${randomInt(0, 360)} ${randomInt(45, 75)}% ${randomInt(18, 34)}%)`;
const paleColor = () => `hsl(${randomInt(0, 360)} ${randomInt(30, 60)}% ${randomInt(84, 94)}%)`;

function curveAcross(width: number, height: number): string {
  const y = () => between(30, height - 30);
  return `M${between(-20, 20).toFixed(0)} ${y().toFixed(0)} C${between(60, 120).toFixed(0)} ${y().toFixed(0)} ${between(180, 240).toFixed(0)} ${y().toFixed(0)} ${(width + between(-20, 20)).toFixed(0)} ${y().toFixed(0)}`;
}

/** The SVG of a captcha: jittered, rotated and skewed strokes, crossing curves, dots and a wavy displacement. */
export function captchaSvg(answer: string, size = 300): string {
  const slot = (size - 40) / answer.length;
  const glyphs = [...answer].map((digit, index) => {
    const x = 20 + slot * (index + 0.5) + between(-6, 6);
    const y = size / 2 + between(-45, 45);
    const scale = between(0.85, 1.2) * Math.min(1, slot / 58);
    const transform = `translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${between(-28, 28).toFixed(1)}) skewX(${between(-14, 14).toFixed(1)}) scale(${scale.toFixed(2)}) translate(-30 -50)`;
    const path = jitter(pick(GLYPHS[digit]), 3.5);
    const ink = inkColor();
    const hollow = randomInt(0, 3) === 0 ? `<path d="${path}" stroke="${paleColor()}" stroke-width="2.5"/>` : '';
    return `<g transform="${transform}"><path d="${path}" stroke="${ink}" stroke-width="${between(7, 10).toFixed(1)}"/>${hollow}</g>`;
  });
  const crossing = Array.from({ length: randomInt(5, 8) }, () => {
    const width = between(1.5, 4).toFixed(1);
    return `<path d="${curveAcross(size, size)}" stroke="${inkColor()}" stroke-width="${width}" opacity="${between(0.55, 0.9).toFixed(2)}"/>`;
  });
  const decoys = Array.from({ length: 3 }, () => {
    const path = jitter(pick(GLYPHS[String(randomInt(0, 10))]), 6);
    const transform = `translate(${between(0, size).toFixed(0)} ${between(0, size).toFixed(0)}) rotate(${between(0, 360).toFixed(0)}) scale(${between(0.25, 0.4).toFixed(2)})`;
    return `<path d="${path}" transform="${transform}" stroke="${inkColor()}" stroke-width="4" opacity="0.25"/>`;
  });
  const dots = Array.from(
    { length: 220 },
    () => `<circle cx="${between(0, size).toFixed(0)}" cy="${between(0, size).toFixed(0)}" r="${between(0.8, 2.6).toFixed(1)}" fill="${randomInt(0, 2) ? inkColor() : paleColor()}"/>`,
  );
  const seed = randomInt(1, 10_000);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${paleColor()}"/><stop offset="1" stop-color="${paleColor()}"/></linearGradient>
<filter id="wave" x="-10%" y="-10%" width="120%" height="120%"><feTurbulence type="fractalNoise" baseFrequency="${between(0.012, 0.022).toFixed(3)}" numOctaves="2" seed="${seed}"/><feDisplacementMap in="SourceGraphic" scale="${between(10, 16).toFixed(0)}" xChannelSelector="R" yChannelSelector="G"/></filter>
</defs>
<rect width="${size}" height="${size}" fill="url(#bg)"/>
<g fill="none" stroke-linecap="round" stroke-linejoin="round">${decoys.join('')}</g>
<g fill="none" stroke-linecap="round" stroke-linejoin="round" filter="url(#wave)">${glyphs.join('')}${crossing.join('')}</g>
${dots.join('')}
</svg>`;
}

/** A 300x300 PNG as a `data:` URL, what the captcha dialog shows (SPEC section 2). */
export async function captchaDataUrl(answer: string): Promise<string> {
  const png = await sharp(Buffer.from(captchaSvg(answer))).png({ palette: true, quality: 90, compressionLevel: 9 }).toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}
