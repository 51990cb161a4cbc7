import { useEffect, useState } from 'react';
import { useNavigation } from 'react-router';

/** Fired by the error page when it appears, so a navigation that ends in an error finishes red. */
export const ROUTE_ERROR_EVENT = 'shop:route-error';

const THROTTLE_MS = 200;
const HIDE_DELAY_MS = 500;

type Phase = 'idle' | 'loading' | 'done';

/**
 * SPEC section 9's loading bar: 3px, primary colour, shown only for navigations slower
 * than 200ms, crawling towards the end while loading, then completing and fading out
 * 500ms later; error colour when the navigation lands on an error page.
 */
export function LoadingBar() {
  const busy = useNavigation().state !== 'idle';
  const [phase, setPhase] = useState<Phase>('idle');
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (busy) {
      setFailed(false);
      const timer = setTimeout(() => setPhase('loading'), THROTTLE_MS);
      return () => clearTimeout(timer);
    }
    setPhase((current) => (current === 'loading' ? 'done' : current));
  }, [busy]);

  useEffect(() => {
    if (phase !== 'done') return;
    const timer = setTimeout(() => setPhase('idle'), HIDE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [phase]);

  useEffect(() => {
    const onError = () => setFailed(true);
    window.addEventListener(ROUTE_ERROR_EVENT, onError);
    return () => window.removeEventListener(ROUTE_ERROR_EVENT, onError);
  }, []);

  return <div className="loading-bar" data-phase={phase} data-failed={failed || undefined} aria-hidden="true" />;
}
