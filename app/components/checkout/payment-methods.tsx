import type { ReactElement } from 'react';
import type { PaymentMethodName } from '../../../server/shared/payment-methods';
import { useT } from '~/lib/i18n';

/*
 * Small marks drawn inline (no request, no script): each method's own colours, so a buyer
 * recognises it at a glance; the name beside it is the accessible text.
 */
function CardMark() {
  return (
    <svg viewBox="0 0 40 28" width="40" height="28" aria-hidden="true">
      <rect x="0.5" y="0.5" width="39" height="27" rx="4" fill="#1f3a68" stroke="#1f3a68" />
      <rect x="0" y="6" width="40" height="5" fill="#0d1b33" />
      <rect x="5" y="16" width="9" height="6" rx="1.5" fill="#e8c15a" />
      <rect x="18" y="18" width="16" height="2" rx="1" fill="#9fb4d8" />
    </svg>
  );
}

function PayPalMark() {
  return (
    <svg viewBox="0 0 40 28" width="40" height="28" aria-hidden="true">
      <rect x="0.5" y="0.5" width="39" height="27" rx="4" fill="#fff" stroke="#d5dbe5" />
      <path d="M15 22 17.8 6h6.4c3.2 0 4.8 1.7 4.3 4.3-.6 3.2-2.9 4.7-6 4.7h-2.6L18.8 22Z" fill="#003087" />
      <path d="M18 24.5 20.3 11h4.6c2.5 0 3.7 1.3 3.3 3.4-.5 2.6-2.3 3.8-4.7 3.8h-2l-1 6.3Z" fill="#009cde" />
    </svg>
  );
}

function AlipayMark() {
  return (
    <svg viewBox="0 0 40 28" width="40" height="28" aria-hidden="true">
      <rect width="40" height="28" rx="4" fill="#1677ff" />
      <text x="20" y="20" textAnchor="middle" fontSize="15" fontWeight="700" fill="#fff">
        支
      </text>
    </svg>
  );
}

function WeChatPayMark() {
  return (
    <svg viewBox="0 0 40 28" width="40" height="28" aria-hidden="true">
      <rect width="40" height="28" rx="4" fill="#07c160" />
      <ellipse cx="18" cy="13" rx="8.5" ry="7" fill="#fff" />
      <path d="m12.5 18.5-1 3.5 3.8-2.1Z" fill="#fff" />
      <path d="m14.4 13.2 2.6 2.4 5-5" fill="none" stroke="#07c160" strokeWidth="2" strokeLinecap="round" />
      <circle cx="29" cy="17" r="5" fill="#fff" opacity="0.85" />
    </svg>
  );
}

function SandboxMark() {
  return (
    <svg viewBox="0 0 40 28" width="40" height="28" aria-hidden="true">
      <rect x="0.5" y="0.5" width="39" height="27" rx="4" fill="#fff7e6" stroke="#f0b44c" />
      <path
        d="M17 6h6M18 6v6l-5 8.5c-.6 1 .1 2.5 1.3 2.5h11.4c1.2 0 1.9-1.5 1.3-2.5L22 12V6"
        fill="none"
        stroke="#b26a00"
        strokeWidth="1.8"
        strokeLinejoin="round"
      />
      <path d="M15.5 18h9l2 3.5h-13Z" fill="#f0b44c" />
    </svg>
  );
}

const MARKS: Record<PaymentMethodName, () => ReactElement> = {
  card: CardMark,
  paypal: PayPalMark,
  alipay: AlipayMark,
  wechat_pay: WeChatPayMark,
  sandbox: SandboxMark,
};

/**
 * The methods offered for this order as one radio group inside the pay form: the first is
 * chosen, and the Pay button posts the choice as `method`.
 */
export function PaymentMethodChoice({
  methods,
}: {
  /** Each method, with the currency and amount it charges when that is not plain (ADR 0144). */
  methods: ReadonlyArray<{ method: PaymentMethodName; chargeLine: string | null }>;
}) {
  const t = useT();
  return (
    <fieldset className="pay-methods" data-testid="pay-methods">
      <legend className="pay-methods__legend">{t('pay.methods.legend')}</legend>
      {methods.map(({ method, chargeLine }, index) => {
        const Mark = MARKS[method];
        return (
          <label key={method} className="pay-method" data-testid={`pay-method-${method}`}>
            <input type="radio" name="method" value={method} defaultChecked={index === 0} />
            <Mark />
            <span className="pay-method__text">
              <span className="pay-method__name">{t(`pay.method.${method}.name`)}</span>
              <span className="pay-method__line">{t(`pay.method.${method}.line`)}</span>
              {chargeLine ? (
                <span className="pay-method__charge" data-testid={`pay-charge-${method}`}>
                  {chargeLine}
                </span>
              ) : null}
            </span>
          </label>
        );
      })}
    </fieldset>
  );
}
