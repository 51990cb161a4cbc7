import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * A web server on 127.0.0.1 with the images and the traps a products CSV may point at:
 * a 40x30 PNG, a body over the 20 MB limit sent without a length, text, a redirect chain,
 * redirects to the metadata address, to `localhost` and to an address no parser takes, and a 404.
 */
export async function startImageServer() {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c03030' } })
    .png()
    .toBuffer();
  let port = 0;
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    const hop = /^\/hop\/(\d+)$/.exec(path);
    if (path === '/ok.png') response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else if (path === '/big') {
      response.writeHead(200, { 'content-type': 'image/png' });
      const chunk = Buffer.alloc(1024 * 1024, 1);
      let sent = 0;
      const more = () => {
        while (sent < 21 && !response.destroyed) {
          sent += 1;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end();
      };
      more();
    } else if (path === '/text') response.writeHead(200, { 'content-type': 'image/png' }).end('not a picture');
    else if (hop) response.writeHead(302, { location: `/hop/${Number(hop[1]) + 1}` }).end();
    else if (path === '/to-metadata')
      response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else if (path === '/to-broken') response.writeHead(302, { location: 'http://[::1' }).end();
    else if (path === '/to-localhost') response.writeHead(302, { location: `http://localhost:${port}/ok.png` }).end();
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
