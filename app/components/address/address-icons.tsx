import { Icon, type IconProps } from '../ui/icons';

/** A map pin: an address, in the address book and on the confirm page (24px stroke grid, decorative). */
export const PinIcon = (props: IconProps) => (
  <Icon {...props}>
    <path d="M12 21s-7-5.6-7-11.2A7 7 0 0 1 19 9.8C19 15.4 12 21 12 21z" />
    <circle cx="12" cy="10" r="2.5" />
  </Icon>
);
