import { translator, type Locale } from '../../../../i18n';
import { formatPrice, isCurrency } from '../../../shared/money';
import { isExpired, type SandboxSession } from './sandbox-gateway.service';

/** The page's own policy: no scripts at all, forms only back to this server. */
export const SANDBOX_PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** Every text at least 4.5:1 (WCAG AA) in both schemes: the brand orange #ff6900 is 2.9:1 under white, so the Pay button uses a deeper shade. */
const STYLE = `
:root{color-scheme:light dark;--bg:#f4f5f7;--card:#fff;--text:#1d2129;--muted:#6b7280;--line:#e5e7eb;--primary:#ad4500;--warn-bg:#fff7e6;--warn:#8a5300}
@media (prefers-color-scheme:dark){:root{--bg:#111318;--card:#1b1e25;--text:#e8eaed;--muted:#9aa0a6;--line:#2c313a;--warn-bg:#2b2111;--warn:#e6a23c}}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI","PingFang SC","Microsoft YaHei",sans-serif;padding:16px}
main{width:100%;max-width:420px;background:var(--card);border:1px solid var(--line);border-radius:16px;box-shadow:0 10px 30px rgba(0,0,0,.08);overflow:hidden}
header{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:18px 24px;border-bottom:1px solid var(--line)}
h1{font-size:17px;margin:0;display:flex;align-items:center;gap:8px}
.logo{width:28px;height:28px;border-radius:8px;background:linear-gradient(135deg,#ff6900,#ffb400);display:inline-block}
.badge{font-size:12px;font-weight:700;letter-spacing:.04em;color:var(--warn);background:var(--warn-bg);border:1px solid currentColor;border-radius:999px;padding:2px 10px;white-space:nowrap}
section{padding:24px}
.notice{margin:0 0 20px;padding:10px 12px;border-radius:10px;background:var(--warn-bg);color:var(--warn);font-size:14px}
dl{margin:0 0 24px;display:grid;grid-template-columns:auto 1fr;gap:8px 16px}dt{color:var(--muted)}dd{margin:0;text-align:right;word-break:break-all}
.amount{font-size:32px;font-weight:700;text-align:center;margin:4px 0 20px}
.label{color:var(--muted);text-align:center;font-size:14px;margin:0}
.amount small{font-size:15px;color:var(--muted);font-weight:600}.mono{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:13px}
form{margin:0}button,.button{display:block;width:100%;font:inherit;font-weight:600;padding:13px 16px;border-radius:10px;cursor:pointer;text-align:center;text-decoration:none}
.pay{background:var(--primary);color:#fff;border:0;margin-bottom:10px}.pay:hover{filter:brightness(1.05)}
.decline{background:transparent;color:var(--text);border:1px solid var(--line)}.decline:hover{border-color:var(--muted)}
.message{text-align:center;margin:8px 0 20px}
button:focus-visible,.button:focus-visible{outline:3px solid #3b82f6;outline-offset:2px}
`;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function layout(locale: Locale, body: string): string {
  const t = translator(locale);
  return `<!doctype html>
<html lang="${locale === 'zh-cn' ? 'zh-CN' : 'en'}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(t('sandbox.title'))}</title><style>${STYLE}</style></head>
<body><main>
<header><h1><span class="logo" aria-hidden="true"></span>${escapeHtml(t('sandbox.title'))}</h1><span class="badge">${escapeHtml(t('sandbox.testBadge'))}</span></header>
<section>${body}</section>
</main></body></html>`;
}

/** The hosted page: amount, reference and the two buttons; or where the session stands. */
export function renderSandboxCheckout(session: SandboxSession): string {
  const t = translator(session.locale);
  const amount = isCurrency(session.currency)
    ? formatPrice({ amountMinor: session.amountMinor, currency: session.currency }, 'symbol', session.locale)
    : `${session.amountMinor} ${session.currency}`;
  const summary = `<p class="notice" role="note">${escapeHtml(t('sandbox.notice'))}</p>
<p class="label">${escapeHtml(t('sandbox.amount'))}</p>
<p class="amount" data-testid="amount">${escapeHtml(amount)} <small>${escapeHtml(session.currency)}</small></p>
<dl><dt>${escapeHtml(t('sandbox.order'))}</dt><dd>${escapeHtml(session.description)}</dd>
<dt>${escapeHtml(t('sandbox.reference'))}</dt><dd class="mono">${escapeHtml(session.id)}</dd></dl>`;
  const action = `/sandbox-gateway/checkout/${encodeURIComponent(session.id)}`;
  if (session.status === 'open' && !isExpired(session)) {
    return layout(
      session.locale,
      `${summary}
<form method="post" action="${action}/pay"><button class="pay" type="submit">${escapeHtml(t('sandbox.pay', { amount }))}</button></form>
<form method="post" action="${action}/decline"><button class="decline" type="submit">${escapeHtml(t('sandbox.decline'))}</button></form>`,
    );
  }
  const message = isExpired(session)
    ? t('sandbox.expired')
    : t(`sandbox.done.${session.status as 'paid' | 'declined' | 'refunded'}`);
  const back = session.status === 'paid' || session.status === 'refunded' ? session.successUrl : session.failUrl;
  return layout(
    session.locale,
    `${summary}<p class="message">${escapeHtml(message)}</p><a class="button pay" href="${escapeHtml(back)}">${escapeHtml(t('sandbox.continue'))}</a>`,
  );
}

export function renderSandboxNotFound(locale: Locale): string {
  return layout(locale, `<p class="message">${escapeHtml(translator(locale)('sandbox.notFound'))}</p>`);
}
