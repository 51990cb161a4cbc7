import { useT } from '~/lib/i18n';
import { TruckIcon } from '../ui/icons';
import { Brand } from './brand';
import { ColorModeSwitch } from './color-mode-switch';
import { HeaderActions } from './header-actions';
import { LanguageSwitch } from './language-switch';
import { MobileMenu } from './mobile-menu';
import { MainNav } from './navigation';

/**
 * A thin bar with the shipping promise and, on wide screens, the language and colour-mode
 * switches; below it the bar with the brand, the navigation and the actions slot. The
 * header is sticky with the thin bar scrolled out of view, so only the main bar stays.
 * Phones get the navigation and switches in the menu drawer.
 */
export function SiteHeader() {
  const t = useT();
  return (
    <header className="site-header" id="top">
      <div className="utility-bar">
        <div className="container utility-bar__inner">
          <p className="utility-bar__note">
            <TruckIcon size={16} />
            <span>{t('footer.shipping')}</span>
          </p>
          <div className="utility-bar__prefs">
            <LanguageSwitch />
            <ColorModeSwitch />
          </div>
        </div>
      </div>
      <div className="site-header__bar">
        <div className="container site-header__inner">
          <Brand />
          <MainNav variant="bar" />
          <div className="site-header__end">
            <HeaderActions />
            <MobileMenu />
          </div>
        </div>
      </div>
    </header>
  );
}
