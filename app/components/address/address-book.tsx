import { useEffect, useState } from 'react';
import { useFetcher } from 'react-router';
import { useT } from '~/lib/i18n';
import { ConfirmDialog } from '../account/image-upload';
import { useToast } from '../account/toast';
import { PinIcon } from './address-icons';
import { AddressSummary } from './address-card';
import { AddressDialog } from './address-form';
import { MAX_ADDRESSES_PER_USER, type AddressView } from '../../../server/domains/addresses/addresses.schemas';
import type { AreaCountry } from '../../../server/domains/areas/areas.schemas';

type Answer = { ok: boolean; error?: string; message?: string } | undefined;

/** /{locale}/my/address: the list with edit, delete (asks first) and set default; add/edit in a dialog. */
export function AddressBook({ addresses, countries }: { addresses: AddressView[]; countries: AreaCountry[] }) {
  const t = useT();
  const [editing, setEditing] = useState<AddressView | 'new' | null>(null);
  const full = addresses.length >= MAX_ADDRESSES_PER_USER;

  return (
    <div className="container checkout-page">
      <header className="checkout-head checkout-head--split">
        <div>
          <h1 className="checkout-title">{t('addressBook.title')}</h1>
          <p className="checkout-head__intro">{t('addressBook.intro')}</p>
        </div>
        <button
          type="button"
          className="button button--primary"
          disabled={full}
          onClick={() => setEditing('new')}
          data-testid="address-add"
        >
          {t('addressBook.add')}
        </button>
      </header>
      {addresses.length === 0 ? (
        <div className="empty-state">
          <span className="empty-state__icon">
            <PinIcon size={36} />
          </span>
          <p className="empty-state__title">{t('addressBook.empty')}</p>
          <p className="empty-state__text">{t('addressBook.emptyHint')}</p>
        </div>
      ) : (
        <>
          <ul className="address-grid">
            {addresses.map((address) => (
              <AddressItem key={address.id} address={address} onEdit={() => setEditing(address)} />
            ))}
          </ul>
          <p className="address-grid__limit">
            {t('addressBook.limit', { count: addresses.length, max: MAX_ADDRESSES_PER_USER })}
          </p>
        </>
      )}
      <AddressDialog
        open={editing !== null}
        address={editing === 'new' ? null : editing}
        countries={countries}
        onClose={() => setEditing(null)}
      />
    </div>
  );
}

function AddressItem({ address, onEdit }: { address: AddressView; onEdit: () => void }) {
  const t = useT();
  const toast = useToast();
  const fetcher = useFetcher<Answer>();
  const [confirming, setConfirming] = useState(false);
  const busy = fetcher.state !== 'idle';

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return;
    if (!fetcher.data.ok) toast.show(fetcher.data.error ?? '', 'error');
    else toast.show(fetcher.data.message === 'default' ? t('addressBook.defaultSet') : t('address.deleted'), 'success');
  }, [fetcher.state, fetcher.data, toast, t]);

  return (
    <li
      className={`address-card${address.is_default ? ' address-card--default' : ''}`}
      data-testid="address-card"
      aria-busy={busy}
    >
      <AddressSummary address={address} />
      <div className="address-card__actions">
        {!address.is_default ? (
          <fetcher.Form method="post">
            <input type="hidden" name="intent" value="default" />
            <input type="hidden" name="id" value={address.id} />
            <button type="submit" className="link-button" disabled={busy} data-testid="address-set-default">
              {t('addressBook.setDefault')}
            </button>
          </fetcher.Form>
        ) : null}
        <span className="address-card__spacer" />
        <button type="button" className="link-button" onClick={onEdit} data-testid="address-edit">
          {t('addressBook.edit')}
        </button>
        <button
          type="button"
          className="link-button link-button--danger"
          onClick={() => setConfirming(true)}
          data-testid="address-delete"
        >
          {t('addressBook.delete')}
        </button>
      </div>
      <ConfirmDialog
        open={confirming}
        tone="danger"
        title={t('addressBook.deleteTitle')}
        text={t('addressBook.deleteText', { name: address.contact_name })}
        onCancel={() => setConfirming(false)}
        onConfirm={async () => {
          await fetcher.submit({ intent: 'delete', id: address.id }, { method: 'post' });
          setConfirming(false);
        }}
      />
    </li>
  );
}
