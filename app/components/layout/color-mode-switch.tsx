import { applyColorMode, COLOR_MODES, useColorMode, type ColorMode } from '~/lib/color-mode';
import { localePath, useCurrentPath, useLocale, useT } from '~/lib/i18n';
import { useRootData } from '~/lib/root-data';
import { MonitorIcon, MoonIcon, SunIcon } from '../ui/icons';

const ICONS: Record<ColorMode, typeof SunIcon> = { light: SunIcon, dark: MoonIcon, system: MonitorIcon };

/**
 * Light / Dark / System as a segmented control. With JS a click switches at once and writes
 * the cookie; without it the buttons post to /{locale}/preferences, which sets the cookie
 * and comes back to this page.
 */
export function ColorModeSwitch({ showLabels = false, className = '' }: { showLabels?: boolean; className?: string }) {
  const t = useT();
  const locale = useLocale();
  const { pathname, search } = useCurrentPath();
  const mode = useColorMode(useRootData()?.colorMode ?? 'system');
  return (
    <form method="post" action={localePath(locale, '/preferences')} className={`segmented ${className}`}>
      <input type="hidden" name="redirectTo" value={pathname + search} />
      <div className="segmented__group" role="group" aria-label={t('shell.colorMode')}>
        {COLOR_MODES.map((option) => {
          const Icon = ICONS[option];
          const label = t(`shell.colorMode.${option}`);
          return (
            <button
              key={option}
              type="submit"
              name="colorMode"
              value={option}
              className="segmented__option"
              aria-pressed={mode === option}
              title={showLabels ? undefined : label}
              onClick={(event) => {
                event.preventDefault();
                applyColorMode(option);
              }}
            >
              <Icon size={16} />
              <span className={showLabels ? undefined : 'sr-only'}>{label}</span>
            </button>
          );
        })}
      </div>
    </form>
  );
}
