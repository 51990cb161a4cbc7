/**
 * The product page's own stroke icons (24px grid, decorative: their control carries the name).
 * The image viewer's zoom icons live with the viewer, so the page does not load them before it opens.
 */
export function icon(d: string) {
  return function ProductIcon({ size = 20 }: { size?: number }) {
    return (
      <svg
        width={size}
        height={size}
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth={1.75}
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d={d} />
      </svg>
    );
  };
}

export const PrevIcon = icon('M15 5l-7 7 7 7');
export const NextIcon = icon('M9 5l7 7-7 7');
export const ExpandIcon = icon('M14 4h6v6M10 20H4v-6M20 4l-6.5 6.5M4 20l6.5-6.5');
