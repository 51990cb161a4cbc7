/** Stroke icons of the catalogue, drawn like app/components/ui/icons.tsx (24px grid, decorative). */
import { Icon, type IconProps } from '../ui/icons';

export const SearchIcon = (props: IconProps) => (
  <Icon {...props}>
    <circle cx="11" cy="11" r="6.5" />
    <path d="M16 16l4.5 4.5" />
  </Icon>
);
