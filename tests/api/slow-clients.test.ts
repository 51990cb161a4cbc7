import net from 'node:net';
import { beforeAll, describe, it } from 'vitest';
import { makeBuyer, type Buyer } from '../support/buyers';
import { useTestServer } from '../support/test-server';

/**
 * Small limits so the test is quick: 1 s for the headers, 3 s for a whole request, 2 s without
 * any traffic during a request, 1 s for an idle keep-alive connection (Node adds 1 s to that).
 * Node checks the header and request deadlines every second.
 */
const LIMITS = {
  HTTP_HEADERS_TIMEOUT_SECONDS: '1',
  HTTP_REQUEST_TIMEOUT_SECONDS: '3',
  HTTP_IDLE_TIMEOUT_SECONDS: '2',
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
};
/** Longest a connection is kept open by the test itself: a server that never closes fails. */
const GIVE_UP_MS = 10_000;

const server = useTestServer(LIMITS);
let buyer: Buyer;
beforeAll(async () => {
  buyer = await makeBuyer(server);
});
interface Closed {
  /** From connecting to the server closing the connection. */
  seconds: number;
  received: string;
}

/**
 * A raw client: sends `opening` at once, then `drip` one byte every `everyMs` (looping), and
 * reports when the server closes the connection and what it sent before.
 */
function rawClient(opening: string, drip = '', everyMs = 200): Promise<Closed> {
  const { port } = new URL(server.url);
  return new Promise((resolve) => {
    const started = performance.now();
    let received = '';
    let dripping: NodeJS.Timeout | undefined;
    const socket = net.connect(Number(port), '127.0.0.1', () => {
      socket.write(opening);
      let next = 0;
      if (drip) dripping = setInterval(() => socket.writable && socket.write(drip[next++ % drip.length]!), everyMs);
    });
    const giveUp = setTimeout(() => socket.destroy(), GIVE_UP_MS);
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => {}); // a reset is a close too
    socket.on('close', () => {
      clearInterval(dripping);
      clearTimeout(giveUp);
      resolve({ seconds: (performance.now() - started) / 1000, received });
    });
  });
}

const jsonPost = (path: string, length: number) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

// The connections run side by side (one shared server, like real traffic), so the file takes about 4 s.
describe.concurrent('slow clients', { timeout: 20_000 }, () => {
  it('answers 408 and closes a connection whose headers arrive one byte at a time (slowloris), serving others meanwhile', async ({
    expect,
  }) => {
    const slowloris = rawClient('GET /v1/siteManage HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: a\r\n', 100);
    const started = performance.now();
    const meanwhile = await fetch(`${server.url}/healthz`);
    expect(meanwhile.status).toBe(200);
    expect(performance.now() - started).toBeLessThan(1_000);
    const closed = await slowloris;
    expect(closed.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed.seconds).toBeGreaterThanOrEqual(0.9);
    expect(closed.seconds).toBeLessThan(3);
  });

  it('answers 408 and closes a connection that sends its JSON body one byte every 200 ms', async ({ expect }) => {
    const body = JSON.stringify({ captcha_type: 'digit' }).padEnd(400, ' ');
    const slowBody = rawClient(jsonPost('/v1/captcha', body.length), body, 200);
    const meanwhile = await server.request('/v1/captcha', { method: 'POST', body: { captcha_type: 'digit' } });
    expect(meanwhile.body.code).toBe(200);
    const closed = await slowBody;
    expect(closed.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed.seconds).toBeGreaterThanOrEqual(2.9);
    expect(closed.seconds).toBeLessThan(5.5);
  });

  it('closes a slow image upload (multipart, POST /v1/upload) at the request deadline; the buyer can upload again at once', async ({
    expect,
  }) => {
    const boundary = 'slowclientboundary';
    const opening =
      `POST /v1/upload HTTP/1.1\r\nHost: 127.0.0.1\r\ntoken: ${buyer.headers.token}\r\nsign: ${buyer.headers.sign}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="slow.png"\r\nContent-Type: image/png\r\n\r\n`;
    const closed = await rawClient(opening, '\x89PNG\r\n\x1a\n', 200);
    expect(closed.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closed.seconds).toBeGreaterThanOrEqual(2.9);
    expect(closed.seconds).toBeLessThan(5.5);
    // The buyer can still upload: the aborted upload did not wedge anything.
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(PNG_1X1)], { type: 'image/png' }), 'ok.png');
    const upload = await fetch(`${server.url}/v1/upload`, { method: 'POST', body: form, headers: buyer.headers });
    expect((await upload.json()).code).toBe(0);
  });

  it('drops a request whose body stops arriving after the idle timeout, before the request deadline', async ({
    expect,
  }) => {
    const closed = await rawClient(jsonPost('/v1/captcha', 40), '');
    expect(closed.received).toBe('');
    expect(closed.seconds).toBeGreaterThanOrEqual(1.9);
    expect(closed.seconds).toBeLessThan(2.9);
  });

  it('closes an idle keep-alive connection after the keep-alive timeout (plus the second Node adds)', async ({
    expect,
  }) => {
    const closed = await rawClient('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    expect(closed.received).toMatch(/^HTTP\/1\.1 200 /);
    expect(closed.received).toMatch(/\r\nkeep-alive: timeout=1\r\n/i);
    expect(closed.seconds).toBeGreaterThanOrEqual(1.9);
    expect(closed.seconds).toBeLessThan(3.5);
  });
});

/** A 1×1 transparent PNG. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
