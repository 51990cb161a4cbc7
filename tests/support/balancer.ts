import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Balancer {
  url: string;
  /** Requests each copy answered, by its address. */
  served: Map<string, number>;
  /** Requests the balancer could not pass on and answered 502 itself, with the reason. */
  failures: string[];
  close(): Promise<void>;
}

/** The pause between two checks of a copy's `/readyz`; one failure takes it out, one success brings it back. */
const HEALTH_CHECK_MS = 200;
/** A copy slower than this to answer its check is out (on a loaded test machine it can take a second). */
const HEALTH_CHECK_TIMEOUT_MS = 3_000;
/**
 * Keep-alive connections to the copies are closed after this long idle: below the copies' drain,
 * as README's nginx `keepalive_timeout` is, so no idle connection is left when a copy stops listening.
 */
const UPSTREAM_IDLE_MS = 500;

/**
 * A load balancer as README's deploy section configures one, in a few dozen lines: round robin
 * over the copies whose `/readyz` answers 200, keep-alive connections to them, and a request
 * passed to the next copy only when the connection to a copy was refused. That is what nginx's
 * `proxy_next_upstream error` does for a POST: once the request went out it is never sent twice
 * (the copy may have acted on it), so a copy that drops a connection it accepted fails the request.
 */
export async function startBalancer(upstreams: string[]): Promise<Balancer> {
  const agent = new http.Agent({ keepAlive: true, timeout: UPSTREAM_IDLE_MS });
  const healthy = new Set(upstreams);
  const served = new Map(upstreams.map((upstream) => [upstream, 0]));
  const failures: string[] = [];
  let next = 0;

  let checking = true;
  // One check at a time per copy, so a late answer never overrules a newer one.
  const check = (upstream: string) =>
    new Promise<void>((resolve) => {
      http
        .get(`${upstream}/readyz`, { agent: false, timeout: HEALTH_CHECK_TIMEOUT_MS }, (answer) => {
          answer.resume();
          if (answer.statusCode === 200) healthy.add(upstream);
          else healthy.delete(upstream);
          resolve();
        })
        .on('timeout', function (this: http.ClientRequest) {
          this.destroy();
        })
        .on('error', () => {
          healthy.delete(upstream);
          resolve();
        });
    });
  const checks = upstreams.map(async (upstream) => {
    while (checking) {
      await check(upstream);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_CHECK_MS));
    }
  });

  const pass = (incoming: http.IncomingMessage, body: Buffer, reply: http.ServerResponse, tries: number) => {
    const candidates = healthy.size > 0 ? [...healthy] : upstreams;
    const upstream = candidates[next++ % candidates.length]!;
    const outgoing = http.request(`${upstream}${incoming.url}`, {
      method: incoming.method,
      headers: { ...incoming.headers, connection: 'keep-alive' },
      agent,
    });
    outgoing.on('response', (answer) => {
      served.set(upstream, (served.get(upstream) ?? 0) + 1);
      reply.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(reply);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' && tries < upstreams.length * 2) {
        pass(incoming, body, reply, tries + 1);
        return;
      }
      failures.push(`${incoming.method} ${incoming.url} to ${upstream}: ${error.code ?? error.message}`);
      reply.writeHead(502).end();
    });
    outgoing.end(body);
  };

  const server = http.createServer((incoming, reply) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => pass(incoming, Buffer.concat(chunks), reply, 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served,
    failures,
    async close() {
      checking = false;
      await Promise.all(checks);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
