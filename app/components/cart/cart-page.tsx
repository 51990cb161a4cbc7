import { useEffect, useState } from 'react';
import type { CartLineView, CartView } from '../../../server/domains/cart/cart.schemas';
import { Link, useFetcher, useNavigate } from 'react-router';
import { SIGNED_IN_HINT_COOKIE } from '../../../server/shared/signed-in-hint';
import { localePath, useLocale, useT } from '~/lib/i18n';
import { useHydrated } from '../catalog/use-hydrated';
import { imageAt } from '../catalog/image';
import { useToast } from '../account/toast';
import { useAccount } from '../account/account-context';
import { readBrowserCookie } from '~/lib/api-client';
import { CartIcon, MinusIcon, PlusIcon } from '../ui/icons';
import { AlertCircleIcon, TrashSmallIcon } from '../checkout/icons';
import { Money } from '../checkout/money';
import { announceCartCount } from '~/lib/cart-count';
import { CheckoutCard } from '../checkout/checkout-card';

type LineAnswer = { ok: boolean; error?: string; count?: number; removed?: boolean } | undefined;

/** /{locale}/cart: lines with quantity and remove, stock problems, the goods total and Checkout. */
export function CartPage({ cart }: { cart: CartView }) {
  const t = useT();
  const locale = useLocale();
  useEffect(() => announceCartCount(cart.count), [cart.count]);

  if (cart.lines.length === 0) {
    return (
      <div className="container checkout-page">
        <h1 className="checkout-title">{t('cart.title')}</h1>
        <div className="empty-state" data-testid="cart-empty">
          <span className="empty-state__icon">
            <CartIcon size={36} />
          </span>
          <p className="empty-state__title">{t('cart.empty')}</p>
          <p className="empty-state__text">{t('cart.emptyHint')}</p>
          <Link className="button button--primary" to={localePath(locale, '/')}>
            {t('cart.continue')}
          </Link>
        </div>
      </div>
    );
  }

  return (
    <div className="container checkout-page">
      <header className="checkout-head">
        <h1 className="checkout-title">{t('cart.title')}</h1>
        <p className="checkout-head__intro">{t('cart.intro', { count: cart.count })}</p>
      </header>
      <div className="checkout-layout">
        <section className="checkout-card cart-lines" aria-label={t('cart.title')}>
          {cart.has_problems ? (
            <p className="notice notice--warning" role="status">
              <AlertCircleIcon size={18} />
              {t('cart.fixProblems')}
            </p>
          ) : null}
          <ul className="line-list">
            {cart.lines.map((line) => (
              <CartLineItem key={line.sku_id} line={line} />
            ))}
          </ul>
        </section>
        <CheckoutCard id="cart-summary" title={t('cart.summary')} as="aside" className="checkout-summary">
          <dl className="summary-list">
            <div>
              <dt>{t('cart.goods', { count: cart.count })}</dt>
              <dd>
                <Money amountMinor={cart.goods_amount_minor} />
              </dd>
            </div>
          </dl>
          <p className="checkout-summary__note">{t('cart.shippingLater')}</p>
          <CheckoutAction blocked={cart.has_problems} />
          <Link className="checkout-summary__back" to={localePath(locale, '/')}>
            {t('cart.continue')}
          </Link>
        </CheckoutCard>
      </div>
    </div>
  );
}

/**
 * Checkout. A visitor signs in here first: the login modal opens over the cart, and once the
 * login took the cart into the account (and the page's data reloaded) the buyer goes on to the
 * confirm page, unless the merged cart now has a line to fix. Without JavaScript the link leads
 * to the confirm page, whose guard asks for the login.
 */
function CheckoutAction({ blocked }: { blocked: boolean }) {
  const t = useT();
  const locale = useLocale();
  const navigate = useNavigate();
  const { user, modal, openLogin } = useAccount();
  const [checkoutAfterLogin, setCheckoutAfterLogin] = useState(false);
  const confirmPage = `${localePath(locale, '/order/confirm_order')}?from=cart`;

  useEffect(() => {
    if (!checkoutAfterLogin) return;
    if (user) {
      setCheckoutAfterLogin(false);
      if (!blocked) void navigate(confirmPage);
    } else if (!modal.open && readBrowserCookie(SIGNED_IN_HINT_COOKIE) !== '1') {
      // Closed without a login (a login sets the hint before it closes the modal): stay on the cart.
      setCheckoutAfterLogin(false);
    }
  }, [checkoutAfterLogin, user, modal.open, blocked, navigate, confirmPage]);

  const className = 'button button--primary button--large button--block';
  if (blocked) {
    return (
      <button type="button" className={className} disabled>
        {t('cart.checkout')}
      </button>
    );
  }
  return (
    <>
      {user ? null : <p className="checkout-summary__note">{t('cart.signInAtCheckout')}</p>}
      <Link
        className={className}
        to={confirmPage}
        data-testid="cart-checkout"
        onClick={(event) => {
          if (user) return;
          event.preventDefault();
          setCheckoutAfterLogin(true);
          openLogin();
        }}
      >
        {t('cart.checkout')}
      </Link>
    </>
  );
}

function CartLineItem({ line }: { line: CartLineView }) {
  const t = useT();
  const locale = useLocale();
  const toast = useToast();
  const hydrated = useHydrated();
  const fetcher = useFetcher<LineAnswer>();
  const busy = fetcher.state !== 'idle';
  const pendingQuantity = fetcher.formData?.get('quantity');
  const quantity = typeof pendingQuantity === 'string' ? Number(pendingQuantity) : line.quantity;

  useEffect(() => {
    if (fetcher.state !== 'idle' || !fetcher.data) return;
    if (!fetcher.data.ok && fetcher.data.error) toast.show(fetcher.data.error, 'error');
    if (fetcher.data.ok && fetcher.data.removed) toast.show(t('cart.removed'), 'success');
  }, [fetcher.state, fetcher.data, toast, t]);

  const setQuantity = (next: number) => {
    if (next === line.quantity) return;
    void fetcher.submit({ intent: 'set', sku_id: line.sku_id, quantity: next }, { method: 'post' });
  };
  const product = localePath(locale, `/product/${line.product_id}`);
  const max = Math.max(line.stock, line.quantity, 1);

  return (
    <li className={`line${line.problem ? ' line--problem' : ''}`} data-testid="cart-line" aria-busy={busy}>
      <Link to={product} className="line__image" tabIndex={-1} aria-hidden="true">
        {line.image ? (
          <img src={imageAt(line.image, 160)} alt="" width={88} height={88} loading="lazy" decoding="async" />
        ) : null}
      </Link>
      <div className="line__body">
        <Link to={product} className="line__name">
          {line.name}
        </Link>
        {line.properties ? <p className="line__props">{line.properties}</p> : null}
        <p className="line__unit">
          <span className="sr-only">{t('cart.unitPrice')} </span>
          <Money amountMinor={line.price_minor} />
        </p>
        {line.problem_text ? (
          <p className="line__problem" data-testid="line-problem">
            <AlertCircleIcon size={16} />
            {line.problem_text}
          </p>
        ) : null}
      </div>
      <div className="line__controls">
        <fetcher.Form method="post" className="line__quantity" onSubmit={(event) => hydrated && event.preventDefault()}>
          <input type="hidden" name="intent" value="set" />
          <input type="hidden" name="sku_id" value={line.sku_id} />
          <span className="sr-only">{t('cart.quantity')}</span>
          {hydrated ? (
            <LineStepper name={line.name} value={quantity} max={max} onChange={setQuantity} />
          ) : (
            <>
              <input
                className="stepper__input"
                type="number"
                name="quantity"
                min={1}
                max={max}
                defaultValue={line.quantity}
                aria-label={t('cart.quantity')}
              />
              <button type="submit" className="button button--secondary button--small">
                {t('cart.update')}
              </button>
            </>
          )}
        </fetcher.Form>
        <p className="line__total">
          <span className="sr-only">{t('cart.subtotal')} </span>
          <Money amountMinor={line.line_total_minor} strong />
        </p>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="sku_id" value={line.sku_id} />
          <button
            type="submit"
            className="link-button line__remove"
            disabled={busy}
            aria-label={t('cart.removeNamed', { name: line.name })}
          >
            <TrashSmallIcon size={16} />
            {t('cart.remove')}
          </button>
        </fetcher.Form>
      </div>
    </li>
  );
}

/** Minus, the number, plus: each press (or a typed number, on blur) saves the quantity at once. */
function LineStepper({
  name,
  value,
  max,
  onChange,
}: {
  name: string;
  value: number;
  max: number;
  onChange: (value: number) => void;
}) {
  const t = useT();
  const [draft, setDraft] = useState<string | null>(null);
  const clamp = (next: number) => Math.min(Math.max(Math.round(next) || 1, 1), max);
  const commit = () => {
    if (draft !== null) onChange(clamp(Number(draft)));
    setDraft(null);
  };
  return (
    <div className="stepper stepper--small">
      <button
        type="button"
        className="stepper__button"
        aria-label={t('product.decrease')}
        disabled={value <= 1}
        onClick={() => onChange(clamp(value - 1))}
      >
        <MinusIcon size={16} />
      </button>
      <input
        className="stepper__input"
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        aria-label={`${t('cart.quantity')}: ${name}`}
        value={draft ?? String(value)}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={commit}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            commit();
          }
        }}
        data-testid="line-quantity"
      />
      <button
        type="button"
        className="stepper__button"
        aria-label={t('product.increase')}
        disabled={value >= max}
        onClick={() => onChange(clamp(value + 1))}
      >
        <PlusIcon size={16} />
      </button>
    </div>
  );
}
