import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

/**
 * Baseline of the fan-out scenario: a bare `ws` server on loopback. `POST /broadcast` sends its
 * body, as one text frame, to every connected client; nothing else happens.
 */
const port = Number(process.env.PORT);
const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
const server = createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/broadcast') {
    res.writeHead(404);
    res.end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const frame = Buffer.concat(chunks).toString('utf8');
    for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(frame);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ clients: wss.clients.size }));
  });
});
server.on('upgrade', (req, socket, head) => {
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('message', () => undefined);
  });
});
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`bare ws on ${port}\n`);
});
process.on('SIGTERM', () => {
  for (const c of wss.clients) c.terminate();
  server.close(() => process.exit(0));
});
