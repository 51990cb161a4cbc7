import { createSign, createVerify, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fenOf, yuanText } from '../alipay-amount';

/**
 * A local stand-in for Alipay's gateway (openapi.alipay.com/gateway.do), for tests: the shop's
 * SDK is pointed at it with ALIPAY_GATEWAY. It checks the shop's RSA2 signature on every
 * request with the app's public key, shows a cashier page (Pay / Cancel) for page and
 * mobile-web pay, sends the signed asynchronous notify (retrying until the shop answers
 * `success`, as Alipay does) and sends the buyer back with signed return parameters; it serves
 * alipay.trade.query and alipay.trade.refund with signed answers. Alipay's side is signed with
 * `alipayPrivateKey`, whose public half the shop is configured with. In certificate mode
 * (公钥证书模式) that is the key of "Alipay's" certificate, every request must name the app's
 * certificate and Alipay's root certificate by their SNs, and answers name Alipay's certificate.
 */
export interface FakeAlipayTrade {
  outTradeNo: string;
  tradeNo: string;
  method: string;
  productCode: string;
  totalFen: number;
  subject: string;
  notifyUrl: string;
  returnUrl: string;
  quitUrl: string | null;
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_FINISHED' | 'TRADE_CLOSED';
  refundedFen: number;
}

export interface FakeAlipayRefund {
  outTradeNo: string;
  outRequestNo: string;
  refundFen: number;
}

export interface FakeAlipay {
  url: string;
  /** Where the shop's SDK sends its calls (ALIPAY_GATEWAY). */
  gateway: string;
  trades: Map<string, FakeAlipayTrade>;
  refunds: FakeAlipayRefund[];
  /** Every gateway request whose signature checked out, and each refused one with why (Alipay's sub_code). */
  requests: Array<{ method: string; verified: boolean; refusal?: string }>;
  /** What each notify delivery was answered (status and body). */
  deliveries: Array<{ outTradeNo: string; status: number; body: string }>;
  /** Makes the next N gateway API calls answer HTTP 500 (an outage). */
  failNext(count: number): void;
  /** Pay buttons stop sending the notify (the buyer's return is then the only news the shop gets). */
  holdNotifies(hold: boolean): void;
  /** The buyer presses Pay: the trade is paid, the notify sent (first try awaited); answers the signed return URL. */
  pay(outTradeNo: string): Promise<string>;
  /** The signed address Alipay sends the buyer back to for a trade, whatever state it is in (a replayed or early return). */
  returnUrl(outTradeNo: string): string;
  /** A notify body for a trade as Alipay would post it, signed with `signWith` (Alipay's key by default). */
  notify(
    outTradeNo: string,
    status: FakeAlipayTrade['status'],
    options?: {
      totalAmount?: string;
      signWith?: string;
      appId?: string;
      notifyId?: string;
      extra?: Record<string, string>;
    },
  ): string;
  close(): Promise<void>;
}

/** Alipay's signing string: the parameters sorted by name, `key=value` joined by `&`, without the signature. */
function signingString(params: Record<string, string>, omit: string[]): string {
  return Object.keys(params)
    .filter((key) => !omit.includes(key) && params[key] !== '')
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join('&');
}

function rsa2Sign(text: string, privateKey: string): string {
  return createSign('RSA-SHA256').update(text, 'utf8').sign(privateKey, 'base64');
}

function rsa2Verify(text: string, signature: string, publicKey: string): boolean {
  try {
    return createVerify('RSA-SHA256').update(text, 'utf8').verify(publicKey, signature, 'base64');
  } catch {
    return false;
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function nowText(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

function cashierPage(trade: FakeAlipayTrade): string {
  const open = trade.status === 'WAIT_BUYER_PAY';
  const actions = open
    ? `<form method="post" action="/cashier/${trade.tradeNo}/pay"><button type="submit" id="alipay-pay">Pay ¥${yuanText(trade.totalFen)}</button></form>
<form method="post" action="/cashier/${trade.tradeNo}/cancel"><button type="submit" id="alipay-cancel">Cancel</button></form>`
    : `<p id="alipay-state">${trade.status}</p>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fake Alipay cashier</title>
<meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body><main><h1>Fake Alipay</h1><p>${escapeHtml(trade.subject)}</p>
<p id="alipay-amount">¥${yuanText(trade.totalFen)}</p><p>${escapeHtml(trade.productCode)}</p>${actions}</main></body></html>`;
}

export async function startFakeAlipay(keys: {
  appId: string;
  /** The shop's app public key (PEM), to check the shop's request signatures. */
  appPublicKey: string;
  /** Alipay's own private key (PEM), to sign notifies, returns and answers. */
  alipayPrivateKey: string;
  /** Pause between notify retries (Alipay: minutes to hours; tests: short). */
  notifyRetryMs?: number;
  /**
   * Certificate mode: the SNs of the app's certificate and of Alipay's root certificate (as
   * Alipay's console computes them) that requests must carry, and that of Alipay's certificate
   * (`alipay_cert_sn`), which answers carry. The app's certificate holds `appPublicKey`.
   */
  certificates?: { appCertSn: string; alipayRootCertSn: string; alipayCertSn: string };
}): Promise<FakeAlipay> {
  const trades = new Map<string, FakeAlipayTrade>();
  const byTradeNo = new Map<string, FakeAlipayTrade>();
  const refunds: FakeAlipayRefund[] = [];
  const requests: FakeAlipay['requests'] = [];
  const deliveries: FakeAlipay['deliveries'] = [];
  const timers = new Set<NodeJS.Timeout>();
  let failures = 0;
  let holding = false;
  let closed = false;
  let counter = 0;

  function signedParams(params: Record<string, string>, signWith = keys.alipayPrivateKey): Record<string, string> {
    return { ...params, sign_type: 'RSA2', sign: rsa2Sign(signingString(params, ['sign', 'sign_type']), signWith) };
  }

  function notifyParams(
    trade: FakeAlipayTrade,
    status: FakeAlipayTrade['status'],
    options: Parameters<FakeAlipay['notify']>[2] = {},
  ): Record<string, string> {
    const params: Record<string, string> = {
      notify_time: nowText(),
      notify_type: 'trade_status_sync',
      notify_id: options.notifyId ?? `nid_${++counter}_${randomBytes(6).toString('hex')}`,
      app_id: options.appId ?? keys.appId,
      auth_app_id: options.appId ?? keys.appId,
      charset: 'utf-8',
      version: '1.0',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      trade_status: status,
      total_amount: options.totalAmount ?? yuanText(trade.totalFen),
      receipt_amount: options.totalAmount ?? yuanText(trade.totalFen),
      subject: trade.subject,
      gmt_create: nowText(),
      ...(status === 'WAIT_BUYER_PAY' ? {} : { gmt_payment: nowText() }),
      ...options.extra,
    };
    return signedParams(params, options.signWith);
  }

  /** Posts the notify until the shop answers exactly `success` (or the fake closes). */
  async function deliver(trade: FakeAlipayTrade, body: string, attempt = 1): Promise<void> {
    let status = 0;
    let answer: string;
    try {
      const response = await fetch(trade.notifyUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body,
      });
      status = response.status;
      answer = await response.text();
    } catch (error) {
      answer = (error as Error).message;
    }
    deliveries.push({ outTradeNo: trade.outTradeNo, status, body: answer });
    if ((status === 200 && answer === 'success') || closed || attempt >= 40) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      void deliver(trade, body, attempt + 1);
    }, keys.notifyRetryMs ?? 500);
    timers.add(timer);
  }

  function returnUrl(trade: FakeAlipayTrade): string {
    const params = signedParams({
      charset: 'utf-8',
      out_trade_no: trade.outTradeNo,
      method: `${trade.method}.return`,
      total_amount: yuanText(trade.totalFen),
      trade_no: trade.tradeNo,
      auth_app_id: keys.appId,
      version: '1.0',
      app_id: keys.appId,
      seller_id: '2088000000000001',
      timestamp: nowText(),
    });
    const url = new URL(trade.returnUrl);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return url.toString();
  }

  async function pay(trade: FakeAlipayTrade): Promise<string> {
    if (trade.status === 'WAIT_BUYER_PAY') {
      trade.status = 'TRADE_SUCCESS';
      if (!holding) await deliver(trade, new URLSearchParams(notifyParams(trade, 'TRADE_SUCCESS')).toString());
    }
    return returnUrl(trade);
  }

  /** Alipay's JSON answer: `{"<method>_response":{…},"sign":"…"}`, signed over the inner object exactly as sent. */
  function signedAnswer(method: string, content: Record<string, unknown>): string {
    const inner = JSON.stringify(content);
    const certificate = keys.certificates ? `"alipay_cert_sn":"${keys.certificates.alipayCertSn}",` : '';
    return `{"${method.replaceAll('.', '_')}_response":${inner},${certificate}"sign":"${rsa2Sign(inner, keys.alipayPrivateKey)}"}`;
  }

  const businessFailure = (subCode: string, subMsg: string) => ({
    code: '40004',
    msg: 'Business Failed',
    sub_code: subCode,
    sub_msg: subMsg,
  });

  function query(biz: Record<string, string>) {
    const trade = trades.get(biz.out_trade_no ?? '') ?? byTradeNo.get(biz.trade_no ?? '');
    if (!trade) return businessFailure('ACQ.TRADE_NOT_EXIST', 'trade does not exist');
    return {
      code: '10000',
      msg: 'Success',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      trade_status: trade.status,
      total_amount: yuanText(trade.totalFen),
      buyer_logon_id: 'buy***@example.com',
    };
  }

  function refund(biz: Record<string, string>) {
    const trade = trades.get(biz.out_trade_no ?? '') ?? byTradeNo.get(biz.trade_no ?? '');
    if (!trade) return businessFailure('ACQ.TRADE_NOT_EXIST', 'trade does not exist');
    const outRequestNo = biz.out_request_no ?? trade.outTradeNo;
    const answer = (fundChange: 'Y' | 'N') => ({
      code: '10000',
      msg: 'Success',
      trade_no: trade.tradeNo,
      out_trade_no: trade.outTradeNo,
      buyer_logon_id: 'buy***@example.com',
      fund_change: fundChange,
      refund_fee: yuanText(trade.refundedFen),
    });
    // Alipay refunds once per (trade, out_request_no); a repeat answers success without moving money.
    if (refunds.some((made) => made.outTradeNo === trade.outTradeNo && made.outRequestNo === outRequestNo))
      return answer('N');
    const refundFen = fenOf(biz.refund_amount);
    if (refundFen === null || refundFen <= 0)
      return { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-parameter' };
    if (trade.status !== 'TRADE_SUCCESS') return businessFailure('ACQ.TRADE_STATUS_ERROR', `trade is ${trade.status}`);
    if (trade.refundedFen + refundFen > trade.totalFen)
      return businessFailure('ACQ.REFUND_AMT_NOT_EQUAL_TOTAL', 'refund amount exceeds what is left');
    trade.refundedFen += refundFen;
    refunds.push({ outTradeNo: trade.outTradeNo, outRequestNo, refundFen });
    if (trade.refundedFen === trade.totalFen) trade.status = 'TRADE_CLOSED';
    return answer('Y');
  }

  /** A page or mobile-web pay request: the shop's signature checked, the trade opened, the cashier shown. */
  function openCashier(params: Record<string, string>, response: http.ServerResponse) {
    const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
    const totalFen = fenOf(biz.total_amount);
    if (!biz.out_trade_no || totalFen === null || !params.notify_url || !params.return_url) {
      response.writeHead(400, { 'content-type': 'text/plain' });
      return response.end('missing out_trade_no, total_amount, notify_url or return_url');
    }
    let trade = trades.get(biz.out_trade_no);
    if (!trade) {
      trade = {
        outTradeNo: biz.out_trade_no,
        tradeNo: `2026${String(++counter).padStart(6, '0')}${randomBytes(4).toString('hex')}`,
        method: params.method ?? '',
        productCode: biz.product_code ?? '',
        totalFen,
        subject: biz.subject ?? '',
        notifyUrl: params.notify_url,
        returnUrl: params.return_url,
        quitUrl: biz.quit_url ?? null,
        status: 'WAIT_BUYER_PAY',
        refundedFen: 0,
      };
      trades.set(trade.outTradeNo, trade);
      byTradeNo.set(trade.tradeNo, trade);
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(cashierPage(trade));
  }

  /**
   * Why Alipay refuses a request, as its sub_code, or null. In certificate mode Alipay finds the
   * app's key by app_cert_sn, so an unknown certificate is refused before any signature is read.
   */
  function refusalOf(params: Record<string, string>): string | null {
    if (params.app_id !== keys.appId) return 'isv.invalid-app-id';
    if (keys.certificates && params.app_cert_sn !== keys.certificates.appCertSn) return 'isv.app-cert-not-exist';
    if (keys.certificates && params.alipay_root_cert_sn !== keys.certificates.alipayRootCertSn)
      return 'isv.invalid-alipay-root-cert-sn';
    const signed =
      params.sign_type === 'RSA2' && rsa2Verify(signingString(params, ['sign']), params.sign ?? '', keys.appPublicKey);
    return signed ? null : 'isv.invalid-signature';
  }

  function gateway(params: Record<string, string>, request: http.IncomingMessage, response: http.ServerResponse) {
    const method = params.method ?? '';
    const refusal = refusalOf(params);
    const verified = refusal === null;
    requests.push(verified ? { method, verified } : { method, verified, refusal });
    if (method === 'alipay.trade.page.pay' || method === 'alipay.trade.wap.pay') {
      if (!verified) {
        response.writeHead(400, { 'content-type': 'text/plain' });
        return response.end(refusal);
      }
      return openCashier(params, response);
    }
    if (failures > 0) {
      failures--;
      response.writeHead(500, { 'content-type': 'text/plain' });
      return response.end('fake outage');
    }
    const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;
    let content: Record<string, unknown>;
    if (!verified) content = { code: '40002', msg: 'Invalid Arguments', sub_code: refusal };
    else if (method === 'alipay.trade.query') content = query(biz);
    else if (method === 'alipay.trade.refund') content = refund(biz);
    else content = { code: '40004', msg: 'Business Failed', sub_code: 'isv.invalid-method' };
    response.writeHead(200, { 'content-type': 'application/json;charset=utf-8' });
    response.end(signedAnswer(method, content));
    void request;
  }

  const server = http.createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      void (async () => {
        const url = new URL(request.url ?? '/', 'http://fake.alipay');
        if (url.pathname === '/gateway.do') {
          const params = Object.fromEntries([...url.searchParams, ...new URLSearchParams(raw)]);
          return gateway(params, request, response);
        }
        const cashier = /^\/cashier\/(\w+)\/(pay|cancel)$/.exec(url.pathname);
        const trade = cashier ? byTradeNo.get(cashier[1]!) : undefined;
        if (request.method === 'POST' && trade) {
          const target =
            cashier![2] === 'pay' ? await pay(trade) : (trade.quitUrl ?? new URL('/', trade.returnUrl).toString());
          response.writeHead(303, { location: target });
          return response.end();
        }
        if (url.pathname === '/favicon.ico') {
          // Browsers ask every page's origin for one; a 404 would show in a browser test's console.
          response.writeHead(204);
          return response.end();
        }
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end(`no fake for ${request.method} ${url.pathname}`);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    gateway: `${url}/gateway.do`,
    trades,
    refunds,
    requests,
    deliveries,
    failNext(count) {
      failures = count;
    },
    holdNotifies(hold) {
      holding = hold;
    },
    async pay(outTradeNo) {
      const trade = trades.get(outTradeNo);
      if (!trade) throw new Error(`fake alipay: no trade ${outTradeNo}`);
      return pay(trade);
    },
    returnUrl(outTradeNo) {
      const trade = trades.get(outTradeNo);
      if (!trade) throw new Error(`fake alipay: no trade ${outTradeNo}`);
      return returnUrl(trade);
    },
    notify(outTradeNo, status, options) {
      const trade = trades.get(outTradeNo);
      if (!trade) throw new Error(`fake alipay: no trade ${outTradeNo}`);
      return new URLSearchParams(notifyParams(trade, status, options)).toString();
    },
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
