import { expect } from 'chai';
import { eventually } from './eventually.js';
import { asSuper, client, login, type TestBackend } from './test-backend.js';

export { eventually };

type Api = ReturnType<typeof client>;

/**
 * The seeded company with a connected sandbox connection, its super admin, and two operators
 * (`user` profile): Ana and Bia. Conversations start with `inbound`, as a contact writing in.
 */
export async function sandboxDesk(b: TestBackend, connection: Record<string, unknown> = {}) {
  const { api: admin, user } = await asSuper(b);
  const created = await admin.post('/chatapp/', { name: 'Sandbox', provider: 'sandbox', ...connection });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  const connectionId = created.body.id as number;
  await eventually('the session to connect', async () => (await admin.get(`/chatapp/${connectionId}`)).body.status === 'CONNECTED');
  const operator = async (name: string, extra: Record<string, unknown> = {}) => {
    const email = `${name.toLowerCase()}@desk.test`;
    const res = await admin.post('/users', { name, email, password: 'operator-pass-1', ...extra });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const session = await login(b.url, email, 'operator-pass-1');
    return { id: res.body.id as number, api: client(b.url, session.token) as Api };
  };
  const ana = await operator('Ana');
  const bia = await operator('Bia');
  /** A contact writes in; resolves with the ticket it lands in (as the admin sees it). */
  const inbound = async (from: string, body: string, extra: { providerMessageId?: string; senderName?: string } = {}) => {
    const before = (await admin.get(`/tickets?showAll=true&searchParam=${from}`)).body.tickets as Array<{ id: number; unreadMessages: number }>;
    const unread = before[0]?.unreadMessages ?? 0;
    b.sandbox!.inject(connectionId, { from, body, senderName: extra.senderName ?? `Contact ${from.slice(-4)}`, ...extra });
    return eventually('the inbound message to reach its ticket', async () => {
      const found = (await admin.get(`/tickets?showAll=true&searchParam=${from}`)).body.tickets as Array<Record<string, any>>;
      return found.length === 1 && found[0]!.unreadMessages > unread && found[0]!;
    });
  };
  return { admin, adminId: user.id as number, connectionId, ana, bia, inbound, sent: () => b.sandbox!.session(connectionId).sent };
}
