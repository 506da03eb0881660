import Router from '@koa/router';
import Koa from 'koa';

/**
 * Baseline of the send scenario: bare Koa with @koa/router and one route answering a constant,
 * the same framework the backend is built on, with nothing of ours in it.
 */
const port = Number(process.env.PORT);
const app = new Koa();
const router = new Router();
const answer = { status: 'SUCCESS', messageId: '00000000-0000-4000-8000-000000000000', messageIds: ['00000000-0000-4000-8000-000000000000'], ticketId: 1 };
router.post('/api/messages/send', (ctx) => {
  ctx.body = answer;
});
app.use(router.routes()).use(router.allowedMethods());
const server = app.listen(port, '127.0.0.1', () => {
  process.stdout.write(`bare koa on ${port}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
