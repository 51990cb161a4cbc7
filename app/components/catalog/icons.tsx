/** Stroke icons of the catalogue, drawn like app/components/ui/icons.tsx (24px grid, decorative). */
import { Icon, type IconProps } from '../ui/icons';

export const SearchIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="M16 16l4.5 4.5" />
  </Icon>
);

export const CurrencyIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="12" cy="12" r="9" />
    <path d="M14.8 8.8a3.2 3.2 0 0 0-2.8-1.3c-1.7 0-3 .9-3 2.2 0 3.1 6 1.6 6 4.6 0 1.3-1.3 2.2-3 2.2a3.4 3.4 0 0 1-3-1.5M12 6v1.5M12 16.5V18" />
  </Icon>
);
