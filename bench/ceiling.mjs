// The reference for every benchmark ratio: a bare Fastify JSON route on the same machine,
// in its own process, measured in the same run as the shop.
import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
// The same number of bytes a shop target sends (random, like the compressed pages), so
// transfer cost and stack cost can be told apart.
const payloads = new Map();
app.get('/bytes', async (request, reply) => {
  const size = Math.min(Number(request.query.n) || 0, 10_000_000);
  if (!payloads.has(size)) payloads.set(size, randomBytes(size));
  return reply.type('text/html; charset=utf-8').header('content-encoding', 'gzip').send(payloads.get(size));
});
// A flash sale's order against a route that does nothing: bench/orders.mjs sends it the same
// requests as the shop, answered with as many bytes as the shop's order answer.
app.post('/order', async (request, reply) => {
  const size = Math.min(Number(request.query.n) || 0, 1_000_000);
  return reply.type('application/json; charset=utf-8').send(`{"pad":"${'x'.repeat(Math.max(0, size - 10))}"}`);
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
