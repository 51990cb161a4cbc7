import { useEffect, useState } from 'react';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import type { MessageKey } from '../../i18n';
import type { Permission } from '../../server/domains/staff/permissions';
import { adminApi, signInPath } from './lib/admin-api';
import { useCan, useConsole, useConsoleT } from './lib/console-context';
import { useRedirect } from './components/ui';
import { Icon, type IconName } from './components/icon';

interface NavItem {
  to: string;
  label: MessageKey;
  icon: IconName;
  /** The permission the page's API needs; the item is hidden without it. */
  permission?: Permission;
}

const NAV: readonly NavItem[] = [
  { to: '/admin', label: 'console.nav.home', icon: 'home', permission: 'orders:read' },
  { to: '/admin/orders', label: 'console.nav.orders', icon: 'orders', permission: 'orders:read' },
  { to: '/admin/after-sales', label: 'console.nav.afterSales', icon: 'upload', permission: 'aftersales:read' },
  { to: '/admin/customers', label: 'console.nav.customers', icon: 'customers', permission: 'customers:read' },
  { to: '/admin/products', label: 'console.nav.products', icon: 'products', permission: 'catalog:write' },
  { to: '/admin/groups', label: 'console.nav.groups', icon: 'audit', permission: 'catalog:write' },
  { to: '/admin/inventory', label: 'console.nav.inventory', icon: 'download', permission: 'catalog:write' },
  { to: '/admin/staff', label: 'console.nav.staff', icon: 'staff', permission: 'staff:manage' },
  { to: '/admin/roles', label: 'console.nav.roles', icon: 'roles', permission: 'staff:manage' },
  { to: '/admin/shipping', label: 'console.nav.shipping', icon: 'shipping', permission: 'settings:write' },
  { to: '/admin/coupons', label: 'console.nav.coupons', icon: 'coupons', permission: 'settings:write' },
  { to: '/admin/content', label: 'console.nav.content', icon: 'content', permission: 'settings:write' },
  { to: '/admin/settings', label: 'console.nav.settings', icon: 'settings', permission: 'settings:write' },
  {
    to: '/admin/settings/currencies',
    label: 'console.nav.currencies',
    icon: 'currencies',
    permission: 'settings:write',
  },
  { to: '/admin/audit', label: 'console.nav.audit', icon: 'audit', permission: 'audit:read' },
  { to: '/admin/profile', label: 'console.nav.profile', icon: 'profile' },
];

/**
 * The signed-in console: a left sidebar (a rail of icons at tablet width, opened with its
 * button) and the page. Visitors go to sign in; an Owner without two-step sign-in goes to
 * set it up first (the API refuses them everything else until then).
 */
export default function ConsoleShell() {
  const { staff } = useConsole();
  const t = useConsoleT();
  const can = useCan();
  const location = useLocation();
  const navigate = useNavigate();
  const [expanded, setExpanded] = useState(false);

  // The opened sidebar (tablet width) lies over the page: Escape closes it, as a tap beside it does.
  useEffect(() => {
    if (!expanded) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setExpanded(false);
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [expanded]);

  const mustEnrol = Boolean(staff?.second_factor.required && !staff.second_factor.enabled);
  const elsewhere = !staff
    ? signInPath(location.pathname + location.search)
    : mustEnrol && location.pathname !== '/admin/two-step'
      ? '/admin/two-step'
      : null;
  useRedirect(elsewhere);
  if (!staff || elsewhere) return null;

  const signOut = async () => {
    await adminApi('/logout', { method: 'POST', keepOn401: true }).catch(() => undefined);
    await navigate('/admin/sign-in', { replace: true });
    window.location.reload();
  };

  return (
    <div className={`console${expanded ? ' console--expanded' : ''}`}>
      <a className="console-skip" href="#console-main">
        {t('console.nav.skip')}
      </a>
      <aside className="console-sidebar" aria-label={t('console.nav.label')}>
        <div className="console-sidebar__head">
          <span className="console-sidebar__brand" aria-hidden="true">
            ◆
          </span>
          <span className="console-sidebar__title">{t('console.title')}</span>
          <button
            type="button"
            className="console-sidebar__toggle"
            aria-expanded={expanded}
            aria-label={t(expanded ? 'console.nav.collapse' : 'console.nav.expand')}
            onClick={() => setExpanded((open) => !open)}
          >
            <Icon name={expanded ? 'collapse' : 'expand'} />
          </button>
        </div>
        {mustEnrol ? null : (
          <nav className="console-nav">
            <ul>
              {NAV.filter((item) => !item.permission || can(item.permission)).map((item) => (
                <li key={item.to}>
                  <NavLink
                    to={item.to}
                    // An entry with entries under it (Settings > Currencies) is lit only on its own page.
                    end={item.to === '/admin' || NAV.some((other) => other.to.startsWith(`${item.to}/`))}
                    className="console-nav__link"
                    title={t(item.label)}
                    onClick={() => setExpanded(false)}
                  >
                    <Icon name={item.icon} />
                    <span className="console-nav__text">{t(item.label)}</span>
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div className="console-sidebar__foot">
          <div className="console-sidebar__who">
            <span className="console-avatar" aria-hidden="true">
              {(staff.name || staff.email).slice(0, 1).toUpperCase()}
            </span>
            <span className="console-sidebar__whotext">
              <strong>{staff.name}</strong>
              <span>{staff.email}</span>
            </span>
          </div>
          <button
            type="button"
            className="console-nav__link console-nav__button"
            onClick={signOut}
            title={t('console.nav.signOut')}
          >
            <Icon name="signOut" />
            <span className="console-nav__text">{t('console.nav.signOut')}</span>
          </button>
        </div>
      </aside>
      {expanded ? <div className="console-backdrop" aria-hidden="true" onClick={() => setExpanded(false)} /> : null}
      <main id="console-main" className="console-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
