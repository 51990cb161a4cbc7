/** The product page's own stroke icons (24px grid, decorative: their control carries the name). */
function icon(d: string) {
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
export const PlusIcon = icon('M12 5v14M5 12h14');
export const MinusIcon = icon('M5 12h14');
export const ZoomInIcon = icon('M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM15.3 15.3L20 20M8 10.5h5M10.5 8v5');
export const ZoomOutIcon = icon('M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM15.3 15.3L20 20M8 10.5h5');
export const ResetIcon = icon('M4 12a8 8 0 1 0 2.3-5.7M4 4v4h4');
export const ExpandIcon = icon('M14 4h6v6M10 20H4v-6M20 4l-6.5 6.5M4 20l6.5-6.5');
export const CheckIcon = icon('M5 12.5l4.5 4.5L19 7.5');
