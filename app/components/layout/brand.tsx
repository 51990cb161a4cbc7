import { Link } from 'react-router';
import { localePath, useLocale } from '~/lib/i18n';
import { useSite } from '~/lib/root-data';
import { useBrokenImage } from '~/lib/use-broken-image';

/**
 * The shop's mark and name, linking home. The name is always written out, so the header
 * reads well in both colour modes whatever the logo looks like; a logo that is missing or
 * fails to load gives way to a lettered mark rather than a broken image.
 */
export function Brand({ className = '' }: { className?: string }) {
  const site = useSite();
  const locale = useLocale();
  const { ref, broken, onError } = useBrokenImage(site.logo);
  return (
    <Link to={localePath(locale, '/')} className={`brand ${className}`}>
      {site.logo && !broken ? (
        <img
          ref={ref}
          className="brand__logo"
          src={site.logo}
          alt={site.name}
          width={36}
          height={36}
          decoding="async"
          onError={onError}
        />
      ) : (
        <span className="brand__mark" aria-hidden="true">
          {Array.from(site.name)[0]}
        </span>
      )}
      <span className="brand__name" aria-hidden={site.logo && !broken ? true : undefined}>
        {site.name}
      </span>
    </Link>
  );
}
