import { createServer } from 'node:http';
import Koa from 'koa';
import send from 'koa-send';
import { WebSocketServer } from 'ws';

/**
 * Baseline of the console scenario: the server kind that serves the console (Koa and koa-send,
 * precompressed files, hashed assets immutable, `index.html` never cached) serving a static page
 * from `DIR`, with a websocket at `/ws` to which `POST /broadcast` sends its body as one text
 * frame (the static page's stand-in for the company namespace). Nothing else happens.
 */
const port = Number(process.env.PORT);
const root = process.env.DIR!;
const app = new Koa();
const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });

app.use(async (ctx, next) => {
  if (ctx.method !== 'POST' || ctx.path !== '/broadcast') return next();
  const chunks: Buffer[] = [];
  for await (const c of ctx.req) chunks.push(c as Buffer);
  const frame = Buffer.concat(chunks).toString('utf8');
  for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(frame);
  ctx.body = { clients: wss.clients.size };
});
app.use(async (ctx) => {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return;
  const file = ctx.path === '/' ? 'index.html' : decodeURIComponent(ctx.path.slice(1));
  const immutable = file.startsWith('assets/');
  await send(ctx, file, { root, brotli: true, gzip: true, immutable, maxage: immutable ? 365 * 24 * 3600_000 : 0 }).catch((err: { status?: number }) => {
    if (err.status !== 404) throw err;
  });
  if (!immutable) ctx.set('Cache-Control', 'no-cache');
});

const server = createServer(app.callback());
server.on('upgrade', (req, socket, head) => {
  if (req.url !== '/ws') return socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => ws.on('message', () => undefined));
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`static page on ${port}\n`);
});
process.on('SIGTERM', () => {
  for (const c of wss.clients) c.terminate();
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
