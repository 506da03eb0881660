import { expect } from 'chai';
import { createApplication, SUBJECTS, type Actor, type Ticket } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { companyFixture, planFixture } from '../contracts/repositories-contract.js';

const TOKEN = 'api-token-0123456789-abcdef';

async function setup(connections = 3) {
  const ports = createInMemoryPorts();
  const app = createApplication(ports);
  const plan = await ports.plans.add(planFixture('Small', { connections }));
  const acme = await ports.companies.add(companyFixture(plan.id, 'Acme'));
  const other = await ports.companies.add(companyFixture(plan.id, 'Other'));
  const admin: Actor = { userId: 1, companyId: acme.id, profile: 'admin' };
  const operator: Actor = { userId: 2, companyId: acme.id, profile: 'user' };
  const otherAdmin: Actor = { userId: 3, companyId: other.id, profile: 'admin' };
  const superUser: Actor = { userId: 4, companyId: other.id, profile: 'super' };
  return { ports, app, acme, other, admin, operator, otherAdmin, superUser };
}

type Setup = Awaited<ReturnType<typeof setup>>;
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
const subjects = (s: Setup) => s.ports.outbox.entries.map((e) => `${e.subject} ${(e.payload as { action?: string }).action}`);

function ticket(s: Setup, overrides: Partial<Ticket>): Ticket {
  const now = s.ports.clock.now();
  return s.ports.tickets.table.insert({
    uuid: `t-${Math.random()}`,
    companyId: s.acme.id,
    contactId: 1,
    connectionId: 1,
    status: 'pending',
    userId: null,
    queueId: null,
    unreadMessages: 0,
    lastMessage: '',
    isGroup: false,
    greetedAt: null,
    closedAt: null,
    createdAt: now,
    updatedAt: now,
    queueOptionId: null,
    botAttempts: 0,
    botActive: false,
    ...overrides,
  });
}

describe('Connections (in-memory)', () => {
  it('an admin creates a chat-application connection: OPENING, token masked and usable, start command in the outbox', async () => {
    const s = await setup();
    const view = await s.app.connections.createConnection.execute({
      actor: s.admin,
      kind: 'chatapp',
      provider: 'sandbox',
      name: ' Main ',
      token: TOKEN,
      greetingMessage: 'Hi!',
    });
    expect(view).to.include({
      name: 'Main',
      kind: 'chatapp',
      provider: 'sandbox',
      status: 'OPENING',
      token: 'api-••••cdef',
      greetingMessage: 'Hi!',
      reopenWindowMinutes: 0,
    });
    expect(view).to.not.have.property('tokenDigest');
    expect(view).to.not.have.property('secrets');
    expect(JSON.stringify(view)).to.not.include(TOKEN);
    const stored = (await s.ports.connections.findById(s.acme.id, view.id))!;
    expect(stored.tokenDigest).to.equal(s.ports.digester.digest(TOKEN));
    expect((await s.app.connections.authenticateConnection.execute(TOKEN)).id).to.equal(view.id);
    expect(s.ports.outbox.entries).to.have.length(1);
    expect(s.ports.outbox.entries[0]).to.deep.include({ subject: SUBJECTS.sessionControl(view.id) });
    expect(s.ports.outbox.entries[0]!.payload).to.deep.equal({
      type: 'SessionControl',
      action: 'start',
      companyId: s.acme.id,
      chatappId: view.id,
      provider: 'sandbox',
      secrets: {},
      externalId: null,
    });
    expect(s.ports.realtime.events.map((e) => [e.companyId, e.entity, e.data.action])).to.deep.equal([[s.acme.id, 'chatapp', 'update']]);
  });

  it('the relay carries the session command to the broker after the write', async () => {
    const s = await setup();
    const received: unknown[] = [];
    await s.ports.broker.subscribe('runtime', 'cmd.session.control.>', async (e) => {
      received.push(e.payload);
    });
    const view = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Main' });
    await s.app.outbox.relayOutbox.execute();
    await s.ports.broker.idle();
    expect(received).to.have.length(1);
    expect(received[0]).to.deep.include({ action: 'start', chatappId: view.id, provider: 'baileys' });
    expect(s.ports.outbox.entries.every((e) => e.publishedAt)).to.equal(true);
  });

  it('a social-network connection needs its page id and page access token, which are never shown', async () => {
    const s = await setup();
    const base = { actor: s.admin, kind: 'socialnet' as const, name: 'Page', provider: 'messenger' as const };
    expect(await code(s.app.connections.createConnection.execute(base))).to.equal('ERR_EXTERNAL_ID_REQUIRED');
    expect(await code(s.app.connections.createConnection.execute({ ...base, externalId: '1234567890' }))).to.equal('ERR_PAGE_ACCESS_TOKEN_REQUIRED');
    expect(
      await code(s.app.connections.createConnection.execute({ ...base, provider: 'baileys', externalId: '1', secrets: { pageAccessToken: 'x' } })),
    ).to.equal('ERR_INVALID_PROVIDER');
    s.ports.socialAccounts.grant('EAAB-secret', '1234567890');
    const view = await s.app.connections.createConnection.execute({ ...base, externalId: '1234567890', secrets: { pageAccessToken: 'EAAB-secret' } });
    expect(view).to.include({ kind: 'socialnet', provider: 'messenger', externalId: '1234567890' });
    expect(JSON.stringify(view)).to.not.include('EAAB-secret');
    expect(s.ports.outbox.entries[0]!.payload).to.deep.include({ secrets: { pageAccessToken: 'EAAB-secret' }, externalId: '1234567890' });
    expect(await code(s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'x', provider: 'messenger' }))).to.equal(
      'ERR_INVALID_PROVIDER',
    );
  });

  it('accepts a page only with a token of it, and only once on the platform', async () => {
    const s = await setup();
    s.ports.socialAccounts.grant('acme-token', 'PAGE-A', 'IG-A');
    s.ports.socialAccounts.grant('other-token', 'PAGE-B');
    const page = (actor: Actor, externalId: string, token: string, provider: 'messenger' | 'instagram' | 'sandbox' = 'messenger') =>
      s.app.connections.createConnection.execute({ actor, kind: 'socialnet', provider, name: 'Page', externalId, secrets: { pageAccessToken: token } });
    // Another company's page with its own token, or with a token Meta refuses: nothing is written.
    expect(await code(page(s.otherAdmin, 'PAGE-A', 'other-token'))).to.equal('ERR_PAGE_NOT_OWNED');
    expect(await code(page(s.otherAdmin, 'PAGE-A', 'made-up', 'sandbox'))).to.equal('ERR_PAGE_ACCESS_TOKEN_INVALID');
    expect(await s.ports.connections.countByCompany(s.other.id)).to.equal(0);
    const mine = await page(s.admin, 'PAGE-A', 'acme-token');
    expect(await code(page(s.admin, 'IG-A', 'acme-token', 'instagram'))).to.equal('resolved');
    // The holder of the token registering it again, from any company: 409.
    expect(await code(page(s.admin, 'PAGE-A', 'acme-token'))).to.equal('ERR_PAGE_IN_USE');
    expect(await code(page(s.superUser, 'PAGE-A', 'acme-token'))).to.equal('ERR_PAGE_IN_USE');
    // An edit cannot move a page onto another's id nor keep it with a token of another page.
    const theirs = await page(s.otherAdmin, 'PAGE-B', 'other-token');
    expect(await code(s.app.connections.updateConnection.execute({ actor: s.otherAdmin, connectionId: theirs.id, externalId: 'PAGE-A' }))).to.equal(
      'ERR_PAGE_NOT_OWNED',
    );
    expect(
      await code(
        s.app.connections.updateConnection.execute({
          actor: s.otherAdmin,
          connectionId: theirs.id,
          externalId: 'PAGE-A',
          secrets: { pageAccessToken: 'acme-token' },
        }),
      ),
    ).to.equal('ERR_PAGE_IN_USE');
    expect(
      await code(s.app.connections.updateConnection.execute({ actor: s.admin, connectionId: mine.id, secrets: { pageAccessToken: 'other-token' } })),
    ).to.equal('ERR_PAGE_NOT_OWNED');
    expect((await s.ports.connections.findById(s.other.id, theirs.id))!.externalId).to.equal('PAGE-B');
    expect((await s.ports.connections.findById(s.acme.id, mine.id))!.secrets).to.deep.equal({ pageAccessToken: 'acme-token' });
    // A rename leaves the verified page alone (no call to the provider needed).
    expect(await code(s.app.connections.updateConnection.execute({ actor: s.admin, connectionId: mine.id, name: 'Renamed' }))).to.equal('resolved');
  });

  it('accepts a business number only with a token that reaches it in its account, and only once on the platform', async () => {
    const s = await setup();
    s.ports.socialAccounts.grantNumber('acme-token', 'WABA-A', '1065');
    s.ports.socialAccounts.grantNumber('acme-token', 'WABA-A', '1066');
    s.ports.socialAccounts.grantNumber('other-token', 'WABA-B', '2065');
    const number = (actor: Actor, externalId: string, accessToken: string, wabaId: string) =>
      s.app.connections.createConnection.execute({ actor, kind: 'bizchat', name: 'Número', externalId, secrets: { accessToken, wabaId } });
    // Another company's number with its own token (in either account), with a refused token, or in the wrong account: nothing is written.
    expect(await code(number(s.otherAdmin, '1065', 'other-token', 'WABA-B'))).to.equal('ERR_BIZCHAT_NUMBER_NOT_OWNED');
    expect(await code(number(s.otherAdmin, '1065', 'other-token', 'WABA-A'))).to.equal('ERR_BIZCHAT_NUMBER_NOT_OWNED');
    expect(await code(number(s.otherAdmin, '1065', 'made-up', 'WABA-A'))).to.equal('ERR_BIZCHAT_TOKEN_INVALID');
    expect(await code(number(s.admin, '1065', 'acme-token', 'WABA-B'))).to.equal('ERR_BIZCHAT_NUMBER_NOT_OWNED');
    expect(await s.ports.connections.countByCompany(s.other.id)).to.equal(0);
    expect(s.ports.outbox.entries).to.have.length(0);
    const mine = await number(s.admin, '1065', 'acme-token', 'WABA-A');
    expect(mine).to.include({ kind: 'bizchat', provider: 'cloudapi', externalId: '1065' });
    // The holder of the token registering the number again, from any company: 409.
    expect(await code(number(s.admin, '1065', 'acme-token', 'WABA-A'))).to.equal('ERR_BIZCHAT_NUMBER_IN_USE');
    expect(await code(number(s.otherAdmin, '1065', 'acme-token', 'WABA-A'))).to.equal('ERR_BIZCHAT_NUMBER_IN_USE');
    // A page id equal to the number is another kind's id: no conflict between them.
    s.ports.socialAccounts.grant('page-token', '2065');
    expect(
      await code(
        s.app.connections.createConnection.execute({
          actor: s.admin,
          kind: 'socialnet',
          provider: 'messenger',
          name: 'Page',
          externalId: '2065',
          secrets: { pageAccessToken: 'page-token' },
        }),
      ),
    ).to.equal('resolved');

    // Edits: onto another's number, with a token of another number or account, or with a refused token, are refused.
    const theirs = await number(s.otherAdmin, '2065', 'other-token', 'WABA-B');
    const edit = (actor: Actor, connectionId: number, fields: object) => s.app.connections.updateConnection.execute({ actor, connectionId, ...fields });
    expect(await code(edit(s.otherAdmin, theirs.id, { externalId: '1065' }))).to.equal('ERR_BIZCHAT_NUMBER_NOT_OWNED');
    expect(await code(edit(s.otherAdmin, theirs.id, { externalId: '1065', secrets: { accessToken: 'acme-token', wabaId: 'WABA-A' } }))).to.equal(
      'ERR_BIZCHAT_NUMBER_IN_USE',
    );
    expect(await code(edit(s.admin, mine.id, { secrets: { accessToken: 'other-token', wabaId: 'WABA-A' } }))).to.equal('ERR_BIZCHAT_NUMBER_NOT_OWNED');
    expect(await code(edit(s.admin, mine.id, { secrets: { accessToken: 'acme-token', wabaId: 'WABA-B' } }))).to.equal('ERR_BIZCHAT_NUMBER_NOT_OWNED');
    expect(await code(edit(s.admin, mine.id, { secrets: { accessToken: 'revoked', wabaId: 'WABA-A' } }))).to.equal('ERR_BIZCHAT_TOKEN_INVALID');
    expect(
      await code(edit(s.superUser, theirs.id, { anyCompany: true, externalId: '1065', secrets: { accessToken: 'acme-token', wabaId: 'WABA-A' } })),
    ).to.equal('ERR_BIZCHAT_NUMBER_IN_USE');
    expect((await s.ports.connections.findById(s.other.id, theirs.id))!).to.deep.include({
      externalId: '2065',
      secrets: { accessToken: 'other-token', wabaId: 'WABA-B' },
    });
    expect((await s.ports.connections.findById(s.acme.id, mine.id))!.secrets).to.deep.equal({ accessToken: 'acme-token', wabaId: 'WABA-A' });
    // Our own edit keeping the number is fine; moving to another number the token reaches in the account too.
    expect(await code(edit(s.admin, mine.id, { name: 'Renamed', externalId: '1065' }))).to.equal('resolved');
    expect((await edit(s.admin, mine.id, { externalId: '1066' })).externalId).to.equal('1066');
    // The number left free can be taken by who controls it.
    expect(await code(number(s.admin, '1065', 'acme-token', 'WABA-A'))).to.equal('resolved');
  });

  it('refuses bad input and leaves nothing behind', async () => {
    const s = await setup();
    const bad = [
      { name: '   ' },
      { name: 'x'.repeat(121) },
      { greetingMessage: 'x'.repeat(4001) },
      { reopenWindowMinutes: 10081 },
      { reopenWindowMinutes: -1 },
      { reopenWindowMinutes: 1.5 },
      { token: 'short' },
      { token: 'has a space in the token' },
      { token: 'x'.repeat(257) },
    ];
    for (const fields of bad) {
      const err = await code(s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Main', ...fields }));
      expect(err, JSON.stringify(fields)).to.match(/^ERR_/);
    }
    expect(await s.ports.connections.countByCompany(s.acme.id)).to.equal(0);
    expect(s.ports.outbox.entries).to.have.length(0);
    expect(s.ports.realtime.events).to.have.length(0);
  });

  it('a token belongs to one connection on the whole platform (ERR_TOKEN_IN_USE)', async () => {
    const s = await setup();
    await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Main', token: TOKEN });
    expect(await code(s.app.connections.createConnection.execute({ actor: s.otherAdmin, kind: 'chatapp', name: 'Theirs', token: TOKEN }))).to.equal(
      'ERR_TOKEN_IN_USE',
    );
    const second = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Second' });
    expect(await code(s.app.connections.updateConnection.execute({ actor: s.admin, connectionId: second.id, token: TOKEN }))).to.equal('ERR_TOKEN_IN_USE');
    expect(await s.ports.connections.countByCompany(s.other.id)).to.equal(0);
  });

  it('enforces the plan connection limit with ERR_CONNECTION_CREATION_COUNT', async () => {
    const s = await setup(1);
    await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'One' });
    const err = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Two' }).catch((e) => e);
    expect(err.code).to.equal('ERR_CONNECTION_CREATION_COUNT');
    expect(err.kind).to.equal('forbidden');
    expect(s.ports.outbox.entries).to.have.length(1);
  });

  it('one default per company: setting a default unsets the others', async () => {
    const s = await setup();
    const a = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'A', isDefault: true });
    const b = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'B', isDefault: true });
    expect((await s.ports.connections.findById(s.acme.id, a.id))!.isDefault).to.equal(false);
    await s.app.connections.updateConnection.execute({ actor: s.admin, connectionId: a.id, isDefault: true });
    expect((await s.ports.connections.findById(s.acme.id, b.id))!.isDefault).to.equal(false);
    expect((await s.ports.connections.findById(s.acme.id, a.id))!.isDefault).to.equal(true);
  });

  it('updates fields and the token: an echoed mask keeps it, null removes it, another kind is refused', async () => {
    const s = await setup();
    const c = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', provider: 'sandbox', name: 'Main', token: TOKEN });
    const kept = await s.app.connections.updateConnection.execute({
      actor: s.admin,
      connectionId: c.id,
      name: 'Renamed',
      token: c.token,
      reopenWindowMinutes: 30,
    });
    expect(kept).to.include({ name: 'Renamed', token: c.token, reopenWindowMinutes: 30 });
    expect((await s.app.connections.authenticateConnection.execute(TOKEN)).id).to.equal(c.id);
    expect(await code(s.app.connections.updateConnection.execute({ actor: s.admin, connectionId: c.id, kind: 'socialnet' }))).to.equal(
      'ERR_CONNECTION_KIND_CHANGE',
    );
    expect(await code(s.app.connections.updateConnection.execute({ actor: s.admin, connectionId: c.id, provider: 'instagram' }))).to.equal(
      'ERR_CONNECTION_KIND_CHANGE',
    );
    const replaced = await s.app.connections.updateConnection.execute({ actor: s.admin, connectionId: c.id, token: 'another-token-0123456789' });
    expect(replaced.token).to.equal('anot••••6789');
    expect(await code(s.app.connections.authenticateConnection.execute(TOKEN))).to.equal('ERR_INVALID_CONNECTION_TOKEN');
    const removed = await s.app.connections.updateConnection.execute({ actor: s.admin, connectionId: c.id, token: null });
    expect(removed.token).to.equal(null);
    expect(await code(s.app.connections.authenticateConnection.execute('another-token-0123456789'))).to.equal('ERR_INVALID_CONNECTION_TOKEN');
    expect(subjects(s)).to.deep.equal([`${SUBJECTS.sessionControl(c.id)} start`]);
  });

  it('changing what the connector logs in with restarts the session', async () => {
    const s = await setup();
    s.ports.socialAccounts.grant('a', '111');
    s.ports.socialAccounts.grant('b', '111');
    const c = await s.app.connections.createConnection.execute({
      actor: s.admin,
      kind: 'socialnet',
      provider: 'messenger',
      name: 'Page',
      externalId: '111',
      secrets: { pageAccessToken: 'a' },
    });
    await s.app.connections.updateConnection.execute({ actor: s.admin, connectionId: c.id, secrets: { pageAccessToken: 'b' } });
    expect(subjects(s)).to.deep.equal([`${SUBJECTS.sessionControl(c.id)} start`, `${SUBJECTS.sessionControl(c.id)} restart`]);
    expect(s.ports.outbox.entries[1]!.payload).to.deep.include({ secrets: { pageAccessToken: 'b' } });
    expect(s.ports.realtime.events.at(-1)).to.deep.include({ entity: 'chatappSession' });
  });

  it('keeps tenants apart: another company answers 404; admin variants are for super users only', async () => {
    const s = await setup();
    const c = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Main' });
    const id = { connectionId: c.id };
    for (const attempt of [
      s.app.connections.showConnection.execute({ actor: s.otherAdmin, ...id }),
      s.app.connections.updateConnection.execute({ actor: s.otherAdmin, ...id, name: 'Hijack' }),
      s.app.connections.deleteConnection.execute({ actor: s.otherAdmin, ...id }),
      s.app.connections.controlSession.execute({ actor: s.otherAdmin, ...id, action: 'logout' }),
      s.app.tickets.closeImportedTickets.execute({ actor: s.otherAdmin, ...id }),
      s.app.connections.removeGreetingMedia.execute({ actor: s.otherAdmin, ...id }),
      s.app.connections.showConnection.execute({ actor: s.superUser, ...id }),
    ])
      expect(await code(attempt)).to.equal('ERR_NO_CONNECTION_FOUND');
    expect(await code(s.app.connections.showConnection.execute({ actor: s.admin, ...id, anyCompany: true }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(s.app.connections.updateConnection.execute({ actor: s.otherAdmin, ...id, anyCompany: true, name: 'x' }))).to.equal('ERR_NO_PERMISSION');
    expect((await s.app.connections.showConnection.execute({ actor: s.superUser, ...id, anyCompany: true })).name).to.equal('Main');
    expect((await s.app.connections.updateConnection.execute({ actor: s.superUser, ...id, anyCompany: true, name: 'By super' })).name).to.equal('By super');
    expect(await s.app.connections.listConnections.execute({ actor: s.otherAdmin })).to.deep.equal([]);
    expect(await code(s.app.connections.listAllConnections.execute({ actor: s.admin }))).to.equal('ERR_NO_PERMISSION');
    expect((await s.app.connections.listAllConnections.execute({ actor: s.superUser })).map((v) => v.id)).to.deep.equal([c.id]);
    expect((await s.ports.connections.findById(s.acme.id, c.id))!.name).to.equal('By super');
  });

  it('operators read connections but cannot change them', async () => {
    const s = await setup();
    const c = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Main' });
    expect((await s.app.connections.listConnections.execute({ actor: s.operator })).map((v) => v.id)).to.deep.equal([c.id]);
    expect((await s.app.connections.showConnection.execute({ actor: s.operator, connectionId: c.id })).id).to.equal(c.id);
    for (const attempt of [
      s.app.connections.createConnection.execute({ actor: s.operator, kind: 'chatapp', name: 'Mine' }),
      s.app.connections.updateConnection.execute({ actor: s.operator, connectionId: c.id, name: 'x' }),
      s.app.connections.deleteConnection.execute({ actor: s.operator, connectionId: c.id }),
      s.app.connections.controlSession.execute({ actor: s.operator, connectionId: c.id, action: 'restart' }),
      s.app.connections.restartAllSessions.execute({ actor: s.operator }),
      s.app.tickets.closeImportedTickets.execute({ actor: s.operator, connectionId: c.id }),
    ])
      expect(await code(attempt)).to.equal('ERR_NO_PERMISSION');
  });

  it('filters the company list by kind, status and provider', async () => {
    const s = await setup();
    const chat = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', provider: 'sandbox', name: 'Chat' });
    s.ports.socialAccounts.grant('p', '8', '9');
    const page = await s.app.connections.createConnection.execute({
      actor: s.admin,
      kind: 'socialnet',
      provider: 'instagram',
      name: 'Insta',
      externalId: '9',
      secrets: { pageAccessToken: 'p' },
    });
    await s.app.connections.controlSession.execute({ actor: s.admin, connectionId: chat.id, action: 'logout' });
    const ids = async (f: object) => (await s.app.connections.listConnections.execute({ actor: s.admin, ...f })).map((v) => v.id);
    expect(await ids({})).to.deep.equal([chat.id, page.id]);
    expect(await ids({ kind: 'socialnet' })).to.deep.equal([page.id]);
    expect(await ids({ status: 'DISCONNECTED' })).to.deep.equal([chat.id]);
    expect(await ids({ provider: 'instagram', status: 'OPENING' })).to.deep.equal([page.id]);
    expect(await ids({ provider: 'baileys' })).to.deep.equal([]);
  });

  it('announces the waiting status before the command is relayed, so the runtime’s answer (a code, CONNECTED) always comes after it', async () => {
    const ports = createInMemoryPorts();
    // What the screens had been told when each relay started: the runtime can answer from then on.
    const toldAtRelay: string[] = [];
    const told = () =>
      ports.realtime.events
        .map((e) => {
          const data = e.data as { session?: { status: string }; chatapp?: { status: string } };
          return `${e.entity} ${(data.session ?? data.chatapp)?.status}`;
        })
        .join(', ');
    // Each relay after a commit starts in a unit of work of its own: the moment to look.
    const tx = ports.tx;
    const app = createApplication({
      ...ports,
      tx: {
        run: (work) => tx.run(work),
        afterCommit: (callback) => tx.afterCommit(callback),
        runApart: (work) => {
          toldAtRelay.push(told());
          return tx.runApart(work);
        },
      },
    });
    const plan = await ports.plans.add(planFixture('Small', { connections: 3 }));
    const acme = await ports.companies.add(companyFixture(plan.id, 'Acme'));
    const admin: Actor = { userId: 1, companyId: acme.id, profile: 'admin' };
    const c = await app.connections.createConnection.execute({ actor: admin, kind: 'chatapp', name: 'Main' });
    await app.connections.controlSession.execute({ actor: admin, connectionId: c.id, action: 'restart', pairingPhoneNumber: '5511999990000' });
    await app.connections.restartAllSessions.execute({ actor: admin });
    expect(toldAtRelay).to.deep.equal([
      'chatapp OPENING',
      'chatapp OPENING, chatappSession OPENING',
      'chatapp OPENING, chatappSession OPENING, chatappSession OPENING',
    ]);
  });

  it('starts, restarts and logs out a session: status, command and a chatappSession event each', async () => {
    const s = await setup();
    const c = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Main' });
    await s.ports.connections.update({ ...(await s.ports.connections.findById(s.acme.id, c.id))!, status: 'qrcode', qrcode: 'QR' });
    expect(await s.app.connections.controlSession.execute({ actor: s.admin, connectionId: c.id, action: 'logout' })).to.include({
      status: 'DISCONNECTED',
      qrcode: '',
    });
    expect((await s.app.connections.controlSession.execute({ actor: s.admin, connectionId: c.id, action: 'start' })).status).to.equal('OPENING');
    expect((await s.app.connections.controlSession.execute({ actor: s.admin, connectionId: c.id, action: 'restart' })).status).to.equal('OPENING');
    const control = SUBJECTS.sessionControl(c.id);
    expect(subjects(s)).to.deep.equal([`${control} start`, `${control} logout`, `${control} start`, `${control} restart`]);
    const sessionEvents = s.ports.realtime.events.filter((e) => e.entity === 'chatappSession');
    expect(sessionEvents.map((e) => (e.data.session as { status: string }).status)).to.deep.equal(['DISCONNECTED', 'OPENING', 'OPENING']);
  });

  it('restarts every chat-application session of the company, and only those', async () => {
    const s = await setup();
    const a = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'A' });
    const b = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'B' });
    s.ports.socialAccounts.grant('p', '1');
    await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'socialnet', name: 'Page', externalId: '1', secrets: { pageAccessToken: 'p' } });
    await s.app.connections.createConnection.execute({ actor: s.otherAdmin, kind: 'chatapp', name: 'Theirs' });
    s.ports.outbox.entries.length = 0;
    const restarted = await s.app.connections.restartAllSessions.execute({ actor: s.admin });
    expect(restarted.map((v) => v.id)).to.deep.equal([a.id, b.id]);
    expect(subjects(s)).to.deep.equal([`${SUBJECTS.sessionControl(a.id)} restart`, `${SUBJECTS.sessionControl(b.id)} restart`]);
  });

  it('deletes a connection after writing its logout command, with its greeting media', async () => {
    const s = await setup();
    const c = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Main', token: TOKEN });
    const media = await s.app.connections.setGreetingMedia.execute({
      actor: s.admin,
      connectionId: c.id,
      file: { filename: 'hello.png', contentType: 'image/png', data: Buffer.from('png') },
    });
    await s.app.connections.deleteConnection.execute({ actor: s.admin, connectionId: c.id });
    expect(await s.ports.connections.findById(s.acme.id, c.id)).to.equal(null);
    expect(subjects(s)).to.deep.equal([`${SUBJECTS.sessionControl(c.id)} start`, `${SUBJECTS.sessionControl(c.id)} logout`]);
    expect(s.ports.blobs.blobs.has(media.greetingMediaKey!)).to.equal(false);
    expect(await code(s.app.connections.authenticateConnection.execute(TOKEN))).to.equal('ERR_INVALID_CONNECTION_TOKEN');
    expect(s.ports.realtime.events.at(-1)).to.deep.include({ entity: 'chatapp', data: { action: 'delete', chatappId: c.id } });
  });

  it('stores greeting media under the company, replaces and removes it, refuses empty files', async () => {
    const s = await setup();
    const c = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Main' });
    const upload = (filename: string, contentType: string, data: Buffer) =>
      s.app.connections.setGreetingMedia.execute({ actor: s.admin, connectionId: c.id, file: { filename, contentType, data } });
    expect(await code(upload('empty.txt', 'text/plain', Buffer.alloc(0)))).to.equal('ERR_NO_FILE');
    expect(await code(s.app.connections.setGreetingMedia.execute({ actor: s.admin, connectionId: c.id, file: undefined }))).to.equal('ERR_NO_FILE');
    const first = await upload('my photo (1).png', 'image/png', Buffer.from('first'));
    expect(first.greetingMediaKey).to.match(new RegExp(`^public/company-${s.acme.id}/connections/[0-9a-f-]+-my_photo__1_\\.png$`));
    const second = await upload('page.html', 'text/html', Buffer.from('<script>alert(1)</script>'));
    expect(s.ports.blobs.blobs.has(first.greetingMediaKey!)).to.equal(false);
    expect(s.ports.blobs.blobs.get(second.greetingMediaKey!)!.contentType).to.equal('application/octet-stream');
    const removed = await s.app.connections.removeGreetingMedia.execute({ actor: s.admin, connectionId: c.id });
    expect(removed.greetingMediaKey).to.equal(null);
    expect(s.ports.blobs.blobs.size).to.equal(0);
    expect((await s.app.connections.removeGreetingMedia.execute({ actor: s.admin, connectionId: c.id })).greetingMediaKey).to.equal(null);
  });

  it('closes the pending, unassigned tickets of one connection and tells the operators once', async () => {
    const s = await setup();
    const c = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Main' });
    const d = await s.app.connections.createConnection.execute({ actor: s.admin, kind: 'chatapp', name: 'Other' });
    const backlog = [ticket(s, { connectionId: c.id, contactId: 1 }), ticket(s, { connectionId: c.id, contactId: 2 })];
    const kept = [
      ticket(s, { connectionId: c.id, contactId: 3, userId: 7 }),
      ticket(s, { connectionId: c.id, contactId: 4, status: 'open' }),
      ticket(s, { connectionId: d.id, contactId: 5 }),
      ticket(s, { connectionId: c.id, contactId: 6, companyId: s.other.id }),
    ];
    s.ports.realtime.events.length = 0;
    expect(await s.app.tickets.closeImportedTickets.execute({ actor: s.admin, connectionId: c.id })).to.deep.equal({ closed: 2 });
    for (const t of backlog) expect(await s.ports.tickets.findById(s.acme.id, t.id)).to.include({ status: 'closed' });
    for (const t of kept) expect(s.ports.tickets.table.get(t.id)!.status).to.equal(t.status);
    expect(s.ports.realtime.events).to.have.length(1);
    expect(s.ports.realtime.events[0]).to.deep.include({ companyId: s.acme.id, entity: 'ticket' });
    expect(s.ports.realtime.events[0]!.data).to.deep.include({ action: 'closeMany', ticketIds: backlog.map((t) => t.id) });
    expect(await s.app.tickets.closeImportedTickets.execute({ actor: s.admin, connectionId: c.id })).to.deep.equal({ closed: 0 });
    expect(s.ports.realtime.events).to.have.length(1);
  });
});
