import { Link } from 'react-router';
import { localePath, useLocale } from '~/lib/i18n';
import { useSite } from '~/lib/root-data';
import { useBrokenImage } from '~/lib/use-broken-image';

/**
 * The shop's logo linking home, right for the colour mode in force (CSS picks the variant,
 * so there is no flash). A logo that is missing or fails to load gives way to a lettered
 * mark and the shop's name rather than a broken image.
 */
export function Brand({ className = '' }: { className?: string }) {
  const site = useSite();
  const locale = useLocale();
  // The shop's own logos come with a twin drawn for dark backgrounds (the server names it);
  // any other logo (an operator's upload) is shown on a light chip in dark mode instead.
  const dark = site.logoDark;
  const light = useBrokenImage(site.logo);
  const darkImage = useBrokenImage(dark);
  const showLogo = Boolean(site.logo) && !light.broken && !darkImage.broken;
  const imageProps = { alt: site.name, width: 189, height: 40, decoding: 'async', loading: 'lazy' } as const;
  return (
    <Link to={localePath(locale, '/')} className={`brand ${className}`}>
      {showLogo ? (
        <>
          <img
            {...imageProps}
            ref={light.ref}
            className={`brand__logo ${dark ? 'brand__logo--swap' : 'brand__logo--chip'}`}
            src={site.logo}
            onError={light.onError}
          />
          {dark ? (
            <img
              {...imageProps}
              ref={darkImage.ref}
              className="brand__logo brand__logo--dark"
              src={dark}
              onError={darkImage.onError}
            />
          ) : null}
        </>
      ) : (
        <>
          <span className="brand__mark" aria-hidden="true">
            {Array.from(site.name)[0]}
          </span>
          <span className="brand__name">{site.name}</span>
        </>
      )}
    </Link>
  );
}
