import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import type { OrderCounts } from '../../../server/domains/orders/orders.schemas';
import { api } from '~/lib/api-client';
import { useLocale, useT } from '~/lib/i18n';
import { useAccount } from './account-context';
import { AccountNav } from './account-nav';

/** The signed-in buyer's order counts, asked each time a menu opens (private, never in a shared page). */
function useOrderCounts(): OrderCounts | null {
  const locale = useLocale();
  const [counts, setCounts] = useState<OrderCounts | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    // Without counts the links still work: a failed call shows none rather than a toast (a lost session opens the login modal).
    api<OrderCounts>('/order/countByStatus', { locale, signal: controller.signal }).then(setCounts, () => undefined);
    return () => controller.abort();
  }, [locale]);
  return counts;
}

/**
 * The account navigation outside the account pages, loaded with the `account` texts on first
 * use (./account-button.tsx): a `popover` right after the header's account button in one
 * anchor, which closes (`onClose(false)`) on Escape (focus back on the button), a click or focus
 * outside the anchor, and any navigation; or a section of the phone menu's `drawer`, which
 * closes itself.
 */
export default function AccountMenu({
  placement,
  onClose,
}: {
  placement: 'popover' | 'drawer';
  onClose?: (open: false) => void;
}) {
  const t = useT();
  const { user } = useAccount();
  const counts = useOrderCounts();
  const panel = useRef<HTMLDivElement>(null);
  const { pathname, search } = useLocation();
  const openedAt = useRef(pathname + search);

  useEffect(() => {
    if (!onClose) return;
    // The anchor holds the account button too, so its own click toggles instead of closing twice.
    const inside = (target: EventTarget | null) =>
      target instanceof Node && Boolean(panel.current?.parentElement?.contains(target));
    const onPointer = (event: PointerEvent) => inside(event.target) || onClose(false);
    const onFocus = (event: FocusEvent) => inside(event.target) || onClose(false);
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      (panel.current?.previousElementSibling as HTMLElement | null)?.focus();
      onClose(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('focusin', onFocus);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('focusin', onFocus);
      document.removeEventListener('keydown', onKey);
    };
  }, [onClose]);

  useEffect(() => {
    if (openedAt.current !== pathname + search) onClose?.(false);
  }, [pathname, search, onClose]);

  return (
    <div ref={panel} className={`account-menu account-menu--${placement}`} data-testid={`account-menu-${placement}`}>
      {user ? <p className="account-menu__greeting">{t('account.page.greeting', { name: user.username })}</p> : null}
      <AccountNav counts={counts} variant="menu" />
    </div>
  );
}
