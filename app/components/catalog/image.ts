/** Only our own `/images/...` originals can be resized; anything else is used as it is. */
export function isResizable(url: string): boolean {
  return url.startsWith('/images/') && !url.includes('?');
}

/** `/images/a.webp` at a width: the resized webp variant. */
export function imageAt(url: string, width: number): string {
  return isResizable(url) ? `${url}?w=${width}` : url;
}

/**
 * A `srcSet` of resized variants up to the original's width (no upscaling), or undefined
 * for an image the server cannot resize.
 */
export function imageSrcSet(url: string, widths: readonly number[], originalWidth?: number): string | undefined {
  if (!isResizable(url)) return undefined;
  const usable = widths.filter((width) => !originalWidth || width <= originalWidth);
  const list = usable.length > 0 ? usable : [widths[0]];
  return list.map((width) => `${url}?w=${width} ${width}w`).join(', ');
}

/** Product cards: two columns on phones, three on tablets, four from 960px in a 1200px container. */
export const CARD_IMAGE_SIZES = '(min-width: 1280px) 282px, (min-width: 960px) 23vw, (min-width: 600px) 31vw, 47vw';
export const CARD_IMAGE_WIDTHS = [160, 320, 480, 640, 800] as const;
