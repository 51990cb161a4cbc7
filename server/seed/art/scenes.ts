import sharp from 'sharp';
import { mix, luminance, MATERIAL, random, sharedDefs, line, ellipseSurface, surface, paint } from './paint';
import type { Art } from './types';

/** The backdrop tint for a product colour: a pale, warm version of it. */
export function backdropFor(hex: string): string {
  const cream = '#f3ede4';
  const tint = mix(hex, cream, 0.84);
  return luminance(hex) > 0.62 ? mix('#d9cfc2', hex, 0.2) : tint;
}

/** Paints everything inside .sil in one dark colour: the outline of a drawing. */
const STYLE = `<style>.sil *{fill:#2a1d12 !important;stroke:#2a1d12 !important;stroke-dasharray:none !important;opacity:1 !important}</style>`;

function svgDoc(width: number, height: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${STYLE}<defs>${sharedDefs()}</defs>${body}</svg>`;
}

/** A tiny brand mark in a corner: the sun over three threads of the logo. */
function brandMark(x: number, y: number, size: number, color: string): string {
  const s = size / 32;
  return `<g transform="translate(${x} ${y}) scale(${s})" opacity=".38">
    <circle cx="16" cy="16" r="13" fill="none" stroke="${color}" stroke-width="2.4"/>
    <path d="M7 18H25M9 22H23M12 26H20" stroke="${color}" stroke-width="2.4" stroke-linecap="round"/></g>`;
}

function studio(width: number, height: number, bg: string, floorAt: number): string {
  const top = mix(bg, '#ffffff', 0.45);
  const bottom = mix(bg, '#6b5a48', 0.1);
  return `
    <linearGradient id="sweep" x1="0" y1="0" x2="0" y2="1">
      <stop offset="0" stop-color="${top}"/><stop offset="${(floorAt / height - 0.08).toFixed(3)}" stop-color="${bg}"/>
      <stop offset="1" stop-color="${bottom}"/></linearGradient>
    <rect width="${width}" height="${height}" fill="url(#sweep)"/>
    <ellipse cx="${width / 2}" cy="${floorAt - height * 0.12}" rx="${width * 0.62}" ry="${height * 0.52}" fill="url(#soft-light)"/>`;
}

/** Places a 400x400 drawing so that its floor (y=340) lands at (cx, floorY) with the given scale. */
function place(art: Art, cx: number, floorY: number, scale: number, extra = ''): string {
  return `<g transform="translate(${cx - 200 * scale} ${floorY - 340 * scale}) scale(${scale})" ${extra}>${art.svg}</g>`;
}

function floorShadow(cx: number, floorY: number, width: number, strength = 1, skew = 0): string {
  return `
    <ellipse cx="${cx + skew}" cy="${floorY + 4}" rx="${width * 0.75}" ry="${Math.max(14, width * 0.12)}" fill="url(#soft-shadow)" opacity="${0.45 * strength}"/>
    <ellipse cx="${cx}" cy="${floorY + 1}" rx="${width * 0.55}" ry="${Math.max(6, width * 0.045)}" fill="url(#soft-shadow)" opacity="${0.75 * strength}"/>`;
}

/**
 * A soft drop shadow for a flat-lay, as an embedded bitmap: librsvg's blur filter takes
 * about half a second per picture, so the outline is rendered small, blurred by sharp
 * (vips, a few milliseconds) and stretched back, which a shadow never shows.
 */
async function softShadow(outline: string, width: number, height: number): Promise<string> {
  const scale = 0.25;
  const small = `<svg xmlns="http://www.w3.org/2000/svg" width="${width * scale}" height="${height * scale}" viewBox="0 0 ${width} ${height}">${STYLE}<g class="sil">${outline}</g></svg>`;
  const base = sharp(Buffer.from(small));
  const [tight, wide] = await Promise.all([
    base.clone().blur(1.2).png().toBuffer(),
    base.clone().blur(4.5).png().toBuffer(),
  ]);
  const img = (png: Buffer, dx: number, dy: number, opacity: number) =>
    `<image href="data:image/png;base64,${png.toString('base64')}" x="${dx}" y="${dy}" width="${width}" height="${height}" opacity="${opacity}" preserveAspectRatio="none"/>`;
  return `${img(wide, width * 0.012, height * 0.024, 0.2)}${img(tight, width * 0.005, height * 0.009, 0.3)}`;
}

/** A flat thing lying on a surface, with a soft drop shadow made from its own outline. */
async function flatLay(
  art: Art,
  cx: number,
  cy: number,
  scale: number,
  rotate: number,
  canvas: [number, number],
): Promise<string> {
  const transform = `translate(${cx} ${cy}) rotate(${rotate}) scale(${scale}) translate(-200 -200)`;
  // Textures and shading overlays do not change the outline, so the shadow skips them.
  const outline = art.svg.replace(/<path d="[^"]*" fill="url\(#(tex|vol)-[a-z]+\)"\/>/g, '');
  const shadow = await softShadow(`<g transform="${transform}">${outline}</g>`, canvas[0], canvas[1]);
  return `${shadow}<g transform="${transform}">${art.svg}</g>`;
}

/** Catalogue front view: the product alone on a soft studio sweep. */
export async function frontView(art: Art, color: string, size = 800): Promise<string> {
  const bg = backdropFor(color);
  const scale = (size / 400) * 0.82 * (art.zoom ?? 1);
  if (art.pose === 'flat') {
    const paper = mix(bg, '#ffffff', 0.25);
    return svgDoc(
      size,
      size,
      `<linearGradient id="paper" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${mix(paper, '#ffffff', 0.35)}"/><stop offset="1" stop-color="${mix(paper, '#8a7560', 0.08)}"/></linearGradient>
      <rect width="${size}" height="${size}" fill="url(#paper)"/>
      <rect width="${size}" height="${size}" fill="url(#tex-paper)"/>
      ${await flatLay(art, size / 2, size / 2, scale * 1.1, 0, [size, size])}
      ${brandMark(size - 56, size - 56, 30, mix(bg, '#3b2c20', 0.6))}`,
    );
  }
  const floorY = size * 0.8;
  return svgDoc(
    size,
    size,
    `${studio(size, size, bg, floorY)}
    ${floorShadow(size / 2, floorY, art.footprint * scale)}
    ${place(art, size / 2, floorY, scale)}
    ${brandMark(size - 56, size - 56, 30, mix(bg, '#3b2c20', 0.6))}`,
  );
}

/** Close-up of the material: the drawing enlarged around its focus point. */
export async function detailView(art: Art, color: string, size = 800): Promise<string> {
  const bg = backdropFor(color);
  const zoom = (size / 400) * 2.1 * Math.sqrt(art.zoom ?? 1);
  const [fx, fy] = art.focus;
  const ground =
    art.pose === 'flat'
      ? `<rect width="${size}" height="${size}" fill="${mix(bg, '#ffffff', 0.3)}"/><rect width="${size}" height="${size}" fill="url(#tex-paper)"/>`
      : studio(size, size, bg, size * 1.3);
  const shadow =
    art.pose === 'flat'
      ? ''
      : `<ellipse cx="${size / 2 + (200 - fx) * zoom}" cy="${size / 2 + (344 - fy) * zoom}" rx="${art.footprint * zoom * 0.6}" ry="${zoom * 10}" fill="url(#soft-shadow)" opacity=".5"/>`;
  return svgDoc(
    size,
    size,
    `${ground}${shadow}
    <g transform="translate(${size / 2} ${size / 2}) scale(${zoom}) translate(${-fx} ${-fy})">${art.svg}</g>
    <rect width="${size}" height="${size}" fill="none" stroke="#fff" stroke-opacity=".0"/>`,
  );
}

/** A small sprig of eucalyptus in a bud vase, drawn in scene units. */
function sprigProp(x: number, floorY: number, s: number): string {
  const leaves = Array.from({ length: 9 }, (_, i) => {
    const t = i / 8;
    const px = x + Math.sin(t * 3) * 18 * s + (i % 2 ? 14 : -14) * s;
    const py = floorY - (150 + t * 190) * s;
    return `<ellipse cx="${px}" cy="${py}" rx="${13 * s}" ry="${9 * s}" fill="${i % 2 ? '#9bab8c' : '#8a9c7b'}" transform="rotate(${i % 2 ? 25 : -25} ${px} ${py})"/>`;
  }).join('');
  const vase = paint('#e9e1d3');
  return `
    ${line(`M${x} ${floorY - 120 * s}Q${x + 20 * s} ${floorY - 260 * s} ${x - 6 * s} ${floorY - 350 * s}`, '#6f7d5f', 3 * s)}
    ${leaves}
    <g transform="translate(${x - 200 * s * 0.55} ${floorY - 340 * s * 0.55}) scale(${s * 0.55})">
      ${surface('M170 150V190Q130 220 134 280Q140 340 200 340Q260 340 266 280Q270 220 230 190V150Z', vase.base, { texture: 'speckle' })}
      ${ellipseSurface(200, 150, 30, 7, vase.light, { volume: 'flat' })}</g>`;
}

function booksProp(x: number, floorY: number, s: number): string {
  const book = (y: number, w: number, h: number, fill: string, dx: number) =>
    `${surface(`M${x - w / 2 + dx} ${y - h}H${x + w / 2 + dx}V${y}H${x - w / 2 + dx}Z`, fill, { volume: 'top' })}
     <path d="M${x - w / 2 + dx + 6} ${y - h / 2}H${x + w / 2 + dx - 4}" stroke="#fff" stroke-opacity=".35" stroke-width="${2 * s}"/>`;
  return `${book(floorY, 200 * s, 34 * s, '#c9b79c', 0)}${book(floorY - 34 * s, 180 * s, 28 * s, '#8c9a86', 10 * s)}${book(floorY - 62 * s, 190 * s, 24 * s, '#e8dfd0', -6 * s)}`;
}

/** A plaster wall in window light above a wooden table top; returns the markup and the table line. */
function tableRoom(width: number, height: number, tint: string, seed: string): string {
  const r = random(`${seed}-room`);
  const wall = mix(backdropFor(tint), '#efe6da', 0.55);
  const tableY = height * 0.7;
  return `<linearGradient id="wall" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${mix(wall, '#ffffff', 0.2)}"/><stop offset="1" stop-color="${mix(wall, '#5b4836', 0.12)}"/></linearGradient>
    <linearGradient id="table" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${mix(MATERIAL.wood, '#ffffff', 0.25)}"/><stop offset="1" stop-color="${MATERIAL.woodDark}"/></linearGradient>
    <rect width="${width}" height="${height}" fill="url(#wall)"/>
    <g opacity=".5">
      <path d="M${width * 0.08} ${-20}L${width * 0.32} -20L${width * 0.62} ${tableY}L${width * 0.38} ${tableY}Z" fill="url(#beam)" opacity=".8"/>
      <path d="M${width * 0.4} -20L${width * 0.52} -20L${width * 0.82} ${tableY}L${width * 0.7} ${tableY}Z" fill="url(#beam)" opacity=".65"/>
    </g>
    <rect y="${tableY}" width="${width}" height="${height - tableY}" fill="url(#table)"/>
    <rect y="${tableY}" width="${width}" height="${height - tableY}" fill="url(#tex-grain)"/>
    ${Array.from({ length: 5 }, (_, i) => `<path d="M0 ${tableY + 30 + i * 34 + r() * 8}Q${width / 2} ${tableY + 22 + i * 36} ${width} ${tableY + 34 + i * 33}" stroke="#5a3c22" stroke-opacity=".12" stroke-width="2" fill="none"/>`).join('')}
    <rect y="${tableY}" width="${width}" height="4" fill="#fff" opacity=".3"/>`;
}

/** Video poster: a few standing things on the studio table. */
export async function tableView(
  items: GroupItem[],
  tint: string,
  seed: string,
  width: number,
  height: number,
): Promise<string> {
  const floorY = height * 0.84;
  const scale = (height / 400) * 0.74;
  const n = items.length;
  const body = items
    .map((item, i) => {
      const x = width * (0.5 + (i - (n - 1) / 2) * (n > 2 ? 0.24 : 0.26));
      const s = scale * (item.art.zoom ?? 1) * (i === Math.floor(n / 2) && n > 2 ? 1.08 : 1);
      return `${floorShadow(x + 16, floorY, item.art.footprint * s, 1.1, 24)}${place(item.art, x, floorY, s)}`;
    })
    .join('');
  return svgDoc(width, height, `${tableRoom(width, height, tint, seed)}${body}`);
}

/** Lifestyle: the product on a wooden table against a plaster wall in window light. */
export async function lifestyleView(art: Art, color: string, seed: string, width = 800, height = 800): Promise<string> {
  const r = random(seed);
  if (art.pose === 'flat') return flatLifestyle(art, color, seed, width, height);
  const floorY = height * 0.82;
  const scale = (height / 400) * 0.84 * (art.zoom ?? 1);
  const cx = width * (0.58 + r() * 0.06);
  const propLeft = r() > 0.45;
  const prop = propLeft
    ? sprigProp(width * 0.2, floorY - 14, (height / 800) * 1.3)
    : booksProp(width * 0.19, floorY - 10, (height / 800) * 1.2);
  return svgDoc(
    width,
    height,
    `${tableRoom(width, height, color, seed)}
    ${floorShadow(cx + 20, floorY, art.footprint * scale * 1.1, 1.1, 30)}
    ${prop}
    ${place(art, cx, floorY, scale)}`,
  );
}

async function flatLifestyle(art: Art, color: string, seed: string, width: number, height: number): Promise<string> {
  const r = random(seed);
  const linen = r() > 0.5;
  const ground = linen ? '#e9e2d6' : mix(MATERIAL.wood, '#ffffff', 0.35);
  const planks = linen
    ? `<rect width="${width}" height="${height}" fill="url(#tex-fabric)"/><rect width="${width}" height="${height}" fill="url(#tex-fabric)"/>`
    : Array.from(
        { length: 5 },
        (_, i) => `<rect x="${i * (width / 4) - 2}" width="3" height="${height}" fill="#5a3c22" opacity=".15"/>`,
      ).join('') + `<rect width="${width}" height="${height}" fill="url(#tex-grain)"/>`;
  const cup = paint(mix(color, '#ece4d8', 0.7));
  const s = width / 800;
  const props = `
    <g transform="translate(${width * 0.86} ${height * 0.14})">
      <circle r="${100 * s}" fill="url(#soft-shadow)" opacity=".4" transform="translate(6 10)"/>
      ${ellipseSurface(0, 0, 90 * s, 90 * s, cup.light, { texture: 'speckle', volume: 'soft' })}
      ${ellipseSurface(0, 0, 56 * s, 56 * s, cup.base, { texture: 'speckle', volume: 'soft' })}
      <circle r="${46 * s}" fill="#5b3a22"/><circle r="${46 * s}" fill="url(#vol-soft)"/>
      <ellipse cx="${-12 * s}" cy="${-14 * s}" rx="${14 * s}" ry="${7 * s}" fill="#fff" opacity=".25"/>
    </g>
    <g transform="translate(${width * 0.1} ${height * 0.9}) rotate(-35)">
      ${line(`M0 0L${230 * s} 0`, '#6f7d5f', 3 * s)}
      ${Array.from({ length: 8 }, (_, i) => `<ellipse cx="${20 * s + i * 26 * s}" cy="${(i % 2 ? 14 : -14) * s}" rx="${15 * s}" ry="${9 * s}" fill="${i % 2 ? '#9bab8c' : '#879a78'}"/>`).join('')}
    </g>`;
  return svgDoc(
    width,
    height,
    `<rect width="${width}" height="${height}" fill="${ground}"/>${planks}
    <rect width="${width}" height="${height}" fill="url(#vol-soft)"/>
    ${props}
    ${await flatLay(art, width * 0.46, height * 0.53, (height / 400) * 0.72, -8 + r() * 6, [width, height])}`,
  );
}

export interface GroupItem {
  art: Art;
  color: string;
}

/** Group banner: up to three products together, flat-lay or standing in a row. */
export async function groupView(items: GroupItem[], tint: string, width: number, height: number): Promise<string> {
  const bg = backdropFor(tint);
  const flat = items.every((item) => item.art.pose === 'flat');
  if (flat) {
    const paper = mix(bg, '#ffffff', 0.2);
    const spots: Array<[number, number, number]> = [
      [0.23, 0.5, -8],
      [0.77, 0.48, 7],
      [0.5, 0.53, -3],
    ];
    const laid = await Promise.all(
      items
        .slice(0, 3)
        .map((item, i) =>
          flatLay(item.art, width * spots[i]![0], height * spots[i]![1], (height / 400) * 0.64, spots[i]![2], [
            width,
            height,
          ]),
        ),
    );
    const body = laid.join('');
    return svgDoc(
      width,
      height,
      `<rect width="${width}" height="${height}" fill="${paper}"/><rect width="${width}" height="${height}" fill="url(#tex-paper)"/><rect width="${width}" height="${height}" fill="url(#vol-soft)"/>${body}`,
    );
  }
  const floorY = height * 0.84;
  const base = (height / 400) * 0.8;
  const slots = [
    { x: 0.22, y: floorY - height * 0.05, s: base * 0.86 },
    { x: 0.78, y: floorY - height * 0.04, s: base * 0.88 },
    { x: 0.5, y: floorY, s: base },
  ];
  const order = items.length === 1 ? [2] : items.length === 2 ? [0, 1] : [0, 1, 2];
  const body = items
    .slice(0, 3)
    .map((item, i) => {
      const slot = slots[order[i]!]!;
      const scale = slot.s * Math.min(1.15, item.art.zoom ?? 1);
      return `${floorShadow(width * slot.x, slot.y, item.art.footprint * scale)}${place(item.art, width * slot.x, slot.y, scale)}`;
    })
    .join('');
  return svgDoc(width, height, `${studio(width, height, bg, floorY)}${body}`);
}
