// The reference for every benchmark ratio: a bare Fastify JSON route on the same machine,
// in its own process, measured in the same run as the shop.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
