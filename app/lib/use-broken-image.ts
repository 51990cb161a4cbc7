import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Tracks whether an <img> failed to load, including failures that happened before hydration
 * (those fire no React event), so callers can swap in a fallback instead of a broken image.
 */
export function useBrokenImage(src: string | undefined) {
  const ref = useRef<HTMLImageElement>(null);
  const [broken, setBroken] = useState(false);
  useEffect(() => {
    setBroken(false);
    const element = ref.current;
    // decode() rejects for an image that cannot be shown, and works for SVGs without a size.
    if (element?.complete && element.currentSrc) element.decode().catch(() => setBroken(true));
  }, [src]);
  const onError = useCallback(() => setBroken(true), []);
  return { ref, broken, onError };
}
