import { createHash, randomBytes } from 'node:crypto';
import { AlipaySdk, type AlipaySdkCommonResult } from 'alipay-sdk';
import { certificatesPem } from '../../shared/certificates';
import type { Env } from '../../shared/env';
import { rsaPrivateKeyPem, rsaPublicKeyPem } from '../../shared/rsa-keys';
import { fenOf, yuanText } from './alipay-amount';
import type { Currency } from '../../shared/money';
import { chargesIn } from './charge-currency';
import {
  WebhookVerificationError,
  type PaymentEvent,
  type PaymentOutcome,
  type PaymentProvider,
} from './payment-provider';

interface AlipayCommonOptions {
  appId: string;
  /** The app's private key: PEM, or base64 PKCS#1 or PKCS#8 as Alipay's key tool writes it. */
  privateKey: string;
  /** Tests only: a local fake instead of https://openapi.alipay.com/gateway.do. */
  gateway?: string;
}

/** Public key mode: Alipay's public key for this app (not the app's own public key). */
interface AlipayKeyMode {
  alipayPublicKey: string;
}

/**
 * Certificate mode (公钥证书模式): the app's public-key certificate, Alipay's public-key certificate
 * and Alipay's root certificate, each a `.crt` file's path or its PEM text.
 */
interface AlipayCertificateMode {
  certificates: { app: string; alipay: string; root: string };
}

export type AlipayProviderOptions = AlipayCommonOptions & (AlipayKeyMode | AlipayCertificateMode);

/** The provider's options from the settings of the one signing mode configured (checked at start), or null. */
export function alipayOptions(env: Env): AlipayProviderOptions | null {
  const { ALIPAY_APP_ID: appId, ALIPAY_PRIVATE_KEY: privateKey, ALIPAY_GATEWAY: gateway } = env;
  if (!appId || !privateKey) return null;
  if (env.ALIPAY_PUBLIC_KEY) return { appId, privateKey, gateway, alipayPublicKey: env.ALIPAY_PUBLIC_KEY };
  if (!env.ALIPAY_APP_CERT || !env.ALIPAY_PUBLIC_CERT || !env.ALIPAY_ROOT_CERT) return null;
  return {
    appId,
    privateKey,
    gateway,
    certificates: { app: env.ALIPAY_APP_CERT, alipay: env.ALIPAY_PUBLIC_CERT, root: env.ALIPAY_ROOT_CERT },
  };
}

/**
 * How the SDK checks Alipay's signatures. In certificate mode it takes Alipay's key from
 * Alipay's certificate and computes the app_cert_sn and alipay_root_cert_sn it adds to every
 * request from the certificates' issuers and serial numbers.
 */
function verificationOf(options: AlipayProviderOptions) {
  if ('alipayPublicKey' in options)
    return { alipayPublicKey: rsaPublicKeyPem(options.alipayPublicKey, 'ALIPAY_PUBLIC_KEY') };
  return {
    appCertContent: certificatesPem(options.certificates.app, 'ALIPAY_APP_CERT'),
    alipayPublicCertContent: certificatesPem(options.certificates.alipay, 'ALIPAY_PUBLIC_CERT'),
    alipayRootCertContent: certificatesPem(options.certificates.root, 'ALIPAY_ROOT_CERT'),
  };
}

/**
 * Alipay direct (Open Platform, a mainland merchant) takes CNY only; foreign currencies need
 * Alipay's cross-border acquiring for merchants outside the mainland, which this shop is not
 * (ADR 0143). Orders charged in another currency are offered Alipay through Stripe, if at all.
 */
export function alipayCharges(currency: Currency): boolean {
  return chargesIn('alipay', 'alipay', currency);
}

/** Alipay's interface and product code for each cashier. */
const CASHIERS = {
  desktop: { method: 'alipay.trade.page.pay', productCode: 'FAST_INSTANT_TRADE_PAY' },
  mobile: { method: 'alipay.trade.wap.pay', productCode: 'QUICK_WAP_WAY' },
} as const;

/** Alipay's own request ids (out_trade_no, out_request_no): letters, digits and underscores, 64 at most. */
const ALIPAY_ID = /^[A-Za-z0-9_]{1,64}$/;

/**
 * A shop refund key as Alipay's out_request_no: kept when Alipay takes it as it is, otherwise a
 * digest of it, so the same key always names the same refund at Alipay.
 */
export function outRequestNo(idempotencyKey: string): string {
  const plain = idempotencyKey.replace(/-/g, '_');
  return ALIPAY_ID.test(plain) ? plain : `k_${createHash('sha256').update(idempotencyKey).digest('hex').slice(0, 60)}`;
}

/** The shop's own trade number for one payment attempt; the random tail keeps it unique after a database is reset. */
function outTradeNo(paymentId: number): string {
  return `pay_${paymentId}_${randomBytes(6).toString('hex')}`;
}

type Params = Record<string, string>;

/** Our payment id, read back from an out_trade_no we made (`pay_<id>_<random>`). */
function paymentIdOf(outTradeNo: string | undefined): number | undefined {
  const match = /^pay_(\d+)_/.exec(outTradeNo ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * Alipay's trade states (notify and query `trade_status`) in the shop's terms: paid, closed,
 * or null while the buyer may still pay (WAIT_BUYER_PAY).
 */
function outcomeOfTrade(trade: Params): PaymentOutcome | null {
  const common = {
    providerRef: trade.out_trade_no ?? '',
    paymentId: paymentIdOf(trade.out_trade_no),
    currency: 'CNY',
    chargeRef: trade.trade_no,
  };
  switch (trade.trade_status) {
    case 'TRADE_SUCCESS':
    case 'TRADE_FINISHED': {
      const amountMinor = fenOf(trade.total_amount);
      if (amountMinor === null) throw new WebhookVerificationError(`alipay: total_amount ${trade.total_amount}`);
      return { ...common, type: 'payment.succeeded', amountMinor };
    }
    case 'TRADE_CLOSED':
      // Closed unpaid (timed out, cancelled) or closed after a full refund: the lifecycle keeps a paid payment paid.
      return { ...common, type: 'payment.failed' };
    default:
      return null;
  }
}

/**
 * A refund's notify (it carries gmt_refund) as a refund report: `refund_fee` is what the trade
 * has given back in all, `out_biz_no` the refund's request number, which for the shop's own
 * refunds is its `out_request_no` (so its reference is what `refund` answered). A refund made in
 * Alipay's merchant portal is recorded by the payments domain like any other gateway's.
 */
function refundEventOf(params: Params): PaymentEvent {
  const refunded = fenOf(params.refund_fee);
  const requestNo = params.out_biz_no || `gmt_${params.gmt_refund ?? ''}`;
  const refundRef = `${params.trade_no}/${requestNo}`;
  if (refunded === null)
    return { eventId: `refund:${refundRef}`, type: 'ignored', gatewayType: 'refund:no-refund_fee' };
  return {
    eventId: `refund:${refundRef}`,
    type: 'refund.succeeded',
    refundRef,
    chargeRef: params.trade_no ?? '',
    amountMinor: refunded,
    currency: 'CNY',
    cumulative: true,
    ...(params.out_biz_no ? { shopTag: params.out_biz_no } : {}),
  };
}

/** How the Alipay provider answers a notify it accepted: Alipay retries until it reads exactly this. */
const ACKNOWLEDGEMENT = { contentType: 'text/plain; charset=utf-8', body: 'success' } as const;

/**
 * Alipay through the official `alipay-sdk` (RSA2): page pay on desktops, mobile-web pay on
 * phones; the asynchronous notify verified with Alipay's public key (or the key of Alipay's
 * certificate, in certificate mode); trades queried and refunded
 * with signed calls whose answers are verified too. Alipay direct charges CNY only (ADR 0143).
 */
export function createAlipayProvider(options: AlipayProviderOptions): PaymentProvider {
  const sdk = new AlipaySdk({
    appId: options.appId,
    privateKey: rsaPrivateKeyPem(options.privateKey, 'ALIPAY_PRIVATE_KEY'),
    keyType: 'PKCS8',
    ...verificationOf(options),
    signType: 'RSA2',
    camelcase: false,
    timeout: 15_000,
    ...(options.gateway ? { gateway: options.gateway } : {}),
  });

  /** A signed call whose answer must carry Alipay's valid signature; a transport or signature fault throws. */
  async function call(method: string, bizContent: Record<string, string>): Promise<AlipaySdkCommonResult> {
    return sdk.exec(method, { bizContent }, { validateSign: true });
  }

  /** Signed by Alipay for this app: the notify's form fields, or the parameters a return URL came back with. */
  function signedForUs(params: Params): boolean {
    if (!params.sign || !sdk.checkNotifySignV2(params)) return false;
    return (params.app_id ?? params.auth_app_id) === options.appId;
  }

  return {
    name: 'alipay',
    webhookAcknowledgement: ACKNOWLEDGEMENT,
    methodsFor: ({ currency }) => (alipayCharges(currency) ? ['alipay'] : []),
    async createCheckout(_ctx, request) {
      if (!alipayCharges(request.currency)) throw new Error(`alipay: charges CNY only, not ${request.currency}`);
      const device = request.device ?? 'desktop';
      const cashier = CASHIERS[device];
      const providerRef = outTradeNo(request.paymentId);
      const redirectUrl = sdk.pageExecute(cashier.method, 'GET', {
        bizContent: {
          out_trade_no: providerRef,
          total_amount: yuanText(request.amountMinor),
          subject: request.description,
          product_code: cashier.productCode,
          // Where the mobile cashier's "back" goes; the desktop cashier has no such button.
          ...(device === 'mobile' ? { quit_url: request.failUrl } : {}),
        },
        returnUrl: request.successUrl,
        notifyUrl: `${new URL(request.successUrl).origin}/v1/pay/webhook/alipay`,
      });
      return { providerRef, redirectUrl };
    },
    async verifyWebhook(rawBody) {
      const params = Object.fromEntries(new URLSearchParams(rawBody.toString('utf8')));
      if (!signedForUs(params)) throw new WebhookVerificationError('alipay: notify signature or app_id');
      if (!params.notify_id || !params.out_trade_no || !params.trade_no)
        throw new WebhookVerificationError('alipay: notify without notify_id, out_trade_no or trade_no');
      if (params.gmt_refund || params.out_biz_no) return refundEventOf(params);
      const outcome = outcomeOfTrade(params);
      // One event per trade state: Alipay's retries of the same news carry the same id.
      const eventId = `${params.trade_no}:${params.trade_status ?? ''}`;
      return outcome
        ? { ...outcome, eventId }
        : { eventId, type: 'ignored', gatewayType: `trade:${params.trade_status ?? 'unknown'}` };
    },
    async lookupPayment(_ctx, request) {
      const answer = await call('alipay.trade.query', { out_trade_no: request.providerRef });
      if (answer.code !== '10000') {
        // No trade until the buyer opens the cashier and logs in: they may still pay.
        if (answer.sub_code === 'ACQ.TRADE_NOT_EXIST') return 'pending';
        throw new Error(`alipay: query refused: ${answer.code} ${answer.sub_code ?? ''}`.trim());
      }
      const trade = Object.fromEntries(Object.entries(answer).map(([key, value]) => [key, String(value ?? '')]));
      if (trade.out_trade_no !== request.providerRef)
        throw new Error(`alipay: query answered for ${trade.out_trade_no}`);
      return outcomeOfTrade(trade) ?? 'pending';
    },
    async refund(_ctx, request) {
      // refund_amount is yuan with two decimals, written from fen: any other currency is a bug upstream.
      if (!alipayCharges(request.currency)) throw new Error(`alipay: refunds CNY only, not ${request.currency}`);
      const requestNo = outRequestNo(request.idempotencyKey);
      const answer = await call('alipay.trade.refund', {
        out_trade_no: request.providerRef,
        refund_amount: yuanText(request.amountMinor),
        out_request_no: requestNo,
      });
      if (answer.code !== '10000')
        throw new Error(
          `alipay: refund refused: ${answer.code} ${answer.sub_code ?? ''} ${answer.sub_msg ?? ''}`.trim(),
        );
      // Alipay names no refund id; the trade and our request number name it (a repeat answers fund_change N).
      return { refundRef: `${String(answer.trade_no)}/${requestNo}` };
    },
    returnReference: (params) => (signedForUs(params) && params.out_trade_no ? params.out_trade_no : null),
  };
}
