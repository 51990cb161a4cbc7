/**
 * The right-hand end of the header. Search, the display-currency picker, the cart and the
 * account menu are added here by later work; each should be a compact control at least
 * 44px tall on phones. Until then there is nothing to show.
 */
export function HeaderActions() {
  const actions: React.ReactNode[] = [];
  if (actions.length === 0) return null;
  return <div className="header-actions">{actions}</div>;
}
