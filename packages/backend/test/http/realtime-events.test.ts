import { expect } from 'chai';
import WebSocket from 'ws';
import { REALTIME_EVENT_NAMES } from '@servicedesk/core';
import { newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

/** Every frame as it came off the socket, raw. */
async function listen(url: string) {
  const ws = new WebSocket(url);
  const raw: string[] = [];
  ws.on('message', (data) => raw.push(String(data)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, raw };
}

async function settle(raw: string[], n: number) {
  for (let i = 0; i < 100 && raw.length < n; i++) await new Promise((r) => setTimeout(r, 20));
  expect(raw, `expected ${n} frames`).to.have.length(n);
}

describe('Realtime events on the wire: the union as the HTTP routes publish it', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('writes `{ seq, event: company-<id>-<entity>, data: { action, …payload } }` for pairs of the union, carrying what the routes answer', async () => {
    const a = await newCompanyWithAdmin(b);
    const { ws, raw } = await listen(`${b.url.replace('http', 'ws')}/${a.company.id}?token=${a.token}`);
    const user = (await a.api.post('/users', { name: 'Op One', email: 'wire1@x.test', password: 'op-password' })).body;
    await a.api.put(`/users/${user.id}`, { name: 'Op Uno' });
    await a.api.delete(`/users/${user.id}`);
    await a.api.put('/settings/userRating', { value: 'enabled' });
    const tag = (await a.api.post('/tags', { name: 'VIP', color: '#ff0000' })).body;
    await a.api.put(`/tags/${tag.id}`, { name: 'Gold' });
    const contact = (await a.api.post('/contacts', { name: 'Ana', number: '5511977776666' })).body;
    await a.api.post('/tags/sync', { contactId: contact.id, tagIds: [tag.id] });
    await a.api.put(`/contacts/${contact.id}`, { name: 'Ana Maria' });
    await a.api.delete(`/contacts/${contact.id}`);
    await a.api.delete(`/tags/${tag.id}`);
    const queue = (await a.api.post('/queue', { name: 'Vendas' })).body;
    await a.api.delete(`/queue/${queue.id}`);
    await settle(raw, 13);
    ws.close();

    const names = REALTIME_EVENT_NAMES.map((n) => `${n.entity}:${n.action}`);
    const frames = raw.map((text) => {
      expect(text).to.match(new RegExp(`^\\{"seq":\\d+,"event":"company-${a.company.id}-[A-Za-z]+","data":\\{"action":"[A-Za-z]+"`));
      const frame = JSON.parse(text) as { seq: number; event: string; data: { action: string } & Record<string, any> };
      expect(Object.keys(frame)).to.deep.equal(['seq', 'event', 'data']);
      const entity = frame.event.slice(`company-${a.company.id}-`.length);
      expect(names).to.include(`${entity}:${frame.data.action}`);
      return { entity, ...frame };
    });
    expect(frames.map((f) => `${f.entity}:${f.data.action}`)).to.deep.equal([
      'user:create',
      'user:update',
      'user:delete',
      'settings:update',
      'tag:create',
      'tag:update',
      'contact:create',
      'tag:contact',
      'contact:update',
      'contact:delete',
      'tag:delete',
      'queue:update',
      'queue:delete',
    ]);
    expect(frames.map((f) => f.seq)).to.deep.equal(frames.map((_, i) => frames[0]!.seq + i));
    const [userCreated, , userDeleted, setting, tagCreated, , contactCreated, contactTags, , contactDeleted, tagDeleted, queueCreated, queueDeleted] = frames;
    expect(userCreated!.data).to.deep.equal({ action: 'create', user });
    expect(userDeleted!.data).to.deep.equal({ action: 'delete', userId: user.id });
    expect(setting!.data).to.deep.equal({ action: 'update', setting: { key: 'userRating', value: 'enabled' } });
    expect(tagCreated!.data).to.deep.equal({ action: 'create', tag });
    expect(contactCreated!.data.contact).to.include({ id: contact.id, name: 'Ana', number: contact.number });
    expect(contactTags!.data).to.deep.equal({
      action: 'contact',
      contactId: contact.id,
      tags: [{ id: tag.id, name: 'Gold', color: '#ff0000', kanban: false }],
    });
    expect(contactDeleted!.data).to.deep.equal({ action: 'delete', contactId: contact.id });
    expect(tagDeleted!.data).to.deep.equal({ action: 'delete', tagId: tag.id });
    expect(queueCreated!.data).to.deep.equal({ action: 'update', queue });
    expect(queueDeleted!.data).to.deep.equal({ action: 'delete', queueId: queue.id });
  });
});
