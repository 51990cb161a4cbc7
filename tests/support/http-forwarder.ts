import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP forwarder in front of a local fake gateway, for tests that kill the shop at a chosen
 * moment: `after` runs once the gateway has answered a request and before its answer is passed
 * on, so a test can stop the shop between the gateway's yes and the shop's own commit.
 */
export async function startHttpForwarder(
  target: string,
  hooks: { after?: (request: http.IncomingMessage) => Promise<void> },
) {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        try {
          const upstream = await fetch(`${target}${request.url}`, {
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
