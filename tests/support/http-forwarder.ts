import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP forwarder in front of a local fake gateway or a shop that a test restarts (`target`
 * may be a function, read per request), for tests that kill the shop at a chosen moment:
 * `before` may cut a request's connection as a dying server cuts it (`drop`), and `after` runs
 * once the upstream has answered and before its answer is passed on, so a test can stop the
 * shop between the gateway's yes and the shop's own commit.
 */
export async function startHttpForwarder(
  target: string | (() => string),
  hooks: {
    before?: (request: http.IncomingMessage) => Promise<'drop' | 'pass'>;
    after?: (request: http.IncomingMessage) => Promise<void>;
  },
) {
  const upstreamOf = typeof target === 'string' ? () => target : target;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        if ((await hooks.before?.(request)) === 'drop') return request.socket.destroy();
        try {
          const upstream = await fetch(`${upstreamOf()}${request.url}`, {
            method: request.method,
            headers: Object.fromEntries(
              Object.entries(request.headers).filter(
                (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] !== 'host',
              ),
            ),
            body: request.method === 'GET' ? undefined : Buffer.concat(chunks),
            redirect: 'manual',
          });
          const body = Buffer.from(await upstream.arrayBuffer());
          await hooks.after?.(request);
          response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/plain' });
          response.end(body);
        } catch {
          request.socket.destroy();
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
