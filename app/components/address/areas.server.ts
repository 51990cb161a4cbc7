import type { Locale } from '../../../i18n/locales';
import type { StorefrontLoadContext } from '~/lib/context';
import type { AreaCountry } from '../../../server/domains/areas/areas.schemas';

/** The address form's cascade: the site's countries, their provinces/states and (China) cities, trimmed to id and name. */
export async function loadAreaOptions(context: StorefrontLoadContext, locale: Locale): Promise<AreaCountry[]> {
  const { areas } = await context.services.areas.getAreaTree(context.ctx, { locale });
  return areas.map((country) => ({
    id: country.id,
    name: country.name,
    states: (country.children ?? []).map((state) => ({
      id: state.id,
      name: state.name,
      cities: state.children?.map((city) => ({ id: city.id, name: city.name })),
    })),
  }));
}
