import { useT } from '~/lib/i18n';
import type { AddressView } from '../../../server/domains/addresses/addresses.schemas';

/** One address as the address book and the confirm page show it. */
export function AddressSummary({ address }: { address: AddressView }) {
  const t = useT();
  return (
    <div className="address-summary">
      <p className="address-summary__who">
        <strong>{address.contact_name}</strong>
        <span className="address-summary__phone">{address.contact_phone}</span>
        {address.is_default ? <span className="tag tag--brand">{t('addressBook.default')}</span> : null}
      </p>
      <p className="address-summary__where">{address.full_address}</p>
    </div>
  );
}
