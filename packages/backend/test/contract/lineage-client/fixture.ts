import { expect } from 'chai';
import { sandboxDesk } from '../../support/sandbox-conversations.js';
import { client, login, type TestBackend } from '../../support/test-backend.js';
import type { CallerApis, Params } from './client-call.js';

/**
 * What every entry may refer to: the seeded company (its super admin), a company admin and an
 * operator of it, a connected sandbox connection, a conversation with an inbound message and a reply,
 * a queue and a tag.
 */
export async function sharedFixture(b: TestBackend): Promise<{ params: Params; apis: CallerApis }> {
  const d = await sandboxDesk(b);
  const created = await d.admin.post('/users', { name: 'Carla Admin', email: 'carla@desk.test', password: 'admin-pass-123', profile: 'admin' });
  expect(created.status, JSON.stringify(created.body)).to.equal(201);
  const adminSession = await login(b.url, 'carla@desk.test', 'admin-pass-123');
  const apis: CallerApis = {
    super: d.admin,
    admin: client(b.url, adminSession.token),
    user: d.ana.api,
    public: client(b.url),
    inbound: d.inbound,
  };
  const ticket = await d.inbound('5511977770001', 'Oi, preciso de ajuda', { senderName: 'Joana Araújo' });
  const accepted = await d.ana.api.put(`/tickets/${ticket.id}`, { status: 'open' });
  expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
  const reply = await d.ana.api.post(`/messages/${ticket.id}`, { body: 'Olá Joana, em que posso ajudar?' });
  expect(reply.status, JSON.stringify(reply.body)).to.be.within(200, 299);
  const messages = await d.ana.api.get(`/messages/${ticket.id}`);
  const queue = await d.admin.post('/queue', { name: 'Suporte', color: '#0055ff', greetingMessage: 'Bem-vindo ao suporte' });
  expect(queue.status, JSON.stringify(queue.body)).to.be.within(200, 299);
  const tag = await d.admin.post('/tags', { name: 'VIP', color: '#ff0000', kanban: 1 });
  expect(tag.status, JSON.stringify(tag.body)).to.be.within(200, 299);
  const params: Params = {
    companyId: ticket.companyId as number,
    superId: d.adminId,
    adminId: created.body.id as number,
    userId: d.ana.id,
    otherUserId: d.bia.id,
    chatappId: d.connectionId,
    ticketId: ticket.id as number,
    ticketUuid: ticket.uuid as string,
    contactId: ticket.contactId as number,
    contactNumber: '5511977770001',
    messageId: messages.body.messages[0].id,
    queueId: queue.body.id as number,
    tagId: tag.body.id as number,
    planId: 1,
  };
  return { params, apis };
}
