/**
 * Baseline a: the least a Node server can do for a signed order (see baseline-store.ts), on a
 * bare node:http server. Run by scripts/bench/api.ts as
 * `node --import tsx bench/node-baseline.ts` with PORT and the baseline-store variables.
 */
import http from 'node:http';
import { handleOrder } from './baseline-store';

const port = Number(process.env.PORT);
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    void handleOrder(Buffer.concat(chunks), req.headers['x-api-signature'] as string | undefined).then(
      ({ status, body }) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
        res.end(body);
      },
    );
  });
});
// Loopback only: this is a benchmark target, never a service.
server.listen(port, '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
