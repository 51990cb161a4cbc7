// Shows why bench/run.mjs stops autocannon from keeping response bodies: the same server
// sending 13 KB of ASCII, 13 KB of random (gzip-like) bytes and 17 bytes, with autocannon as is
//   node bench/load-generator-check.mjs
// and with the body copy dropped
//   node bench/load-generator-check.mjs patch
// Unpatched, random bytes come out many times slower than ASCII; patched, the three are close.
import http from 'node:http';
import { createRequire } from 'node:module';
import crypto from 'node:crypto';
import autocannon from 'autocannon';
const require = createRequire(import.meta.url);
const Queue = require('autocannon/lib/pipelinedRequestsQueue.js');
if (process.argv[2] === 'patch') Queue.prototype.addBody = function () {};
const n = 13000;
const bodies = { x: Buffer.alloc(n, 'x'), rnd: crypto.randomBytes(n), small: Buffer.from('{"hello":"world"}') };
const server = http
  .createServer((req, res) => {
    const b = bodies[req.url.slice(1)];
    res.writeHead(200, ['content-type', 'text/html', 'content-encoding', 'gzip', 'content-length', String(b.length)]);
    res.end(b);
  })
  .listen(0, '127.0.0.1', async () => {
    const port = server.address().port;
    for (const k of ['small', 'x', 'rnd', 'small', 'x', 'rnd']) {
      const r = await autocannon({ url: `http://127.0.0.1:${port}/${k}`, connections: 50, duration: 4 });
      console.log(k, Math.round(r.requests.average), r.latency.p99);
    }
    server.close();
  });
