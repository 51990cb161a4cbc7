// Regenerates the bitmap brand assets from the committed vector mark (run once, commit the output):
//   node scripts/generate-brand-assets.mjs
// Writes public/brand/icon.png (512x512, used as the default social/SEO image and app icon)
// and public/favicon.ico (16, 32 and 48 px PNG images in one ICO container).
// The wordmark in public/brand/logo*.svg is outlined text set in Noto Serif CJK SC
// (SIL Open Font License), so it looks the same without the font installed.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const brand = path.join(root, 'public', 'brand');
const mark = fs.readFileSync(path.join(brand, 'mark.svg'), 'utf8');
const markBody = mark.slice(mark.indexOf('>') + 1, mark.lastIndexOf('</svg>'));

/** The mark centred on a square canvas; `background` null keeps it transparent. */
function square(size, { background, markScale }) {
  const inner = 60 * markScale;
  const offset = (60 - inner) / 2;
  const bg = background ? `<rect width="60" height="60" rx="13" fill="${background}"/>` : '';
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 60 60">${bg}` +
      `<g transform="translate(${offset} ${offset - 2 * markScale}) scale(${markScale})">${markBody}</g></svg>`,
  );
}

async function png(svg, size) {
  return sharp(svg, { density: Math.max(72, (72 * size) / 60) })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toBuffer();
}

/** ICO container holding PNG images (supported by every current browser). */
function ico(images) {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = 6 + images.length * 16;
  const entries = images.map(({ size, data }) => {
    const entry = Buffer.alloc(16);
    entry.writeUInt8(size >= 256 ? 0 : size, 0);
    entry.writeUInt8(size >= 256 ? 0 : size, 1);
    entry.writeUInt8(0, 2);
    entry.writeUInt8(0, 3);
    entry.writeUInt16LE(1, 4);
    entry.writeUInt16LE(32, 6);
    entry.writeUInt32LE(data.length, 8);
    entry.writeUInt32LE(offset, 12);
    offset += data.length;
    return entry;
  });
  return Buffer.concat([header, ...entries, ...images.map((image) => image.data)]);
}

const icon = await png(square(512, { background: '#faf6f0', markScale: 0.74 }), 512);
fs.writeFileSync(path.join(brand, 'icon.png'), icon);

const favicons = await Promise.all(
  [16, 32, 48].map(async (size) => ({
    size,
    data: await png(square(size, { background: null, markScale: 1.02 }), size),
  })),
);
fs.writeFileSync(path.join(root, 'public', 'favicon.ico'), ico(favicons));
console.log(
  `icon.png ${icon.length} bytes, favicon.ico ${favicons.reduce((sum, image) => sum + image.data.length, 0)} bytes of images`,
);
