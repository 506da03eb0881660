import { expect } from 'chai';
import type { InMemoryProxyChecker } from '../../src/in-memory/proxies.js';
import type { InMemoryOutbox } from '../../src/in-memory/messaging.js';
import type { Actor } from '../../src/shared/actor.js';
import { connectionFixture } from '../contracts/messaging-contract.js';
import { code, ticketWorld } from '../messaging/ticket-world.js';

/** Acme with four session connections (three running, one stopped), Other with one, a super admin, and a fake proxy checker. */
async function proxyWorld() {
  const w = await ticketWorld();
  const checker = w.ports.proxyChecker as InMemoryProxyChecker;
  const outbox = w.ports.outbox as InMemoryOutbox;
  const root: Actor = { userId: 999, companyId: w.acme.id, profile: 'super' };
  const second = await w.ports.connections.add(connectionFixture(w.acme.id, 'Second', { status: 'CONNECTED' }));
  const third = await w.ports.connections.add(connectionFixture(w.acme.id, 'Third', { status: 'qrcode' }));
  const stopped = await w.ports.connections.add(connectionFixture(w.acme.id, 'Stopped', { status: 'DISCONNECTED' }));
  const page = await w.ports.connections.add(connectionFixture(w.acme.id, 'Page', { kind: 'socialnet', provider: 'messenger', externalId: 'page-1' }));
  const api = w.app.proxies;
  const proxy = (overrides: Record<string, unknown> = {}, actor: Actor = w.admin) =>
    api.createProxy.execute({ actor, name: 'BR 1', host: 'proxy1.example', port: 3128, ...overrides });
  /** The connections a `restart` command was written for, in order. */
  const restarts = () =>
    outbox.entries.filter((e) => (e.payload as { action?: string }).action === 'restart').map((e) => (e.payload as { chatappId: number }).chatappId);
  const assignment = async (connectionId: number, companyId = w.acme.id) =>
    (await w.ports.proxyAssignments.findByConnection(companyId, connectionId))?.proxyId ?? null;
  return { ...w, checker, root, second, third, stopped, page, api, proxy, restarts, assignment };
}

describe('Proxies: the pool', () => {
  it('checks a proxy through itself before saving, seals the password and never shows it', async () => {
    const w = await proxyWorld();
    const p = await w.proxy({ protocol: 'socks5', username: 'user', password: 's3cret-pass', country: 'br', maxConnections: 3 });
    expect(p).to.include({
      name: 'BR 1',
      protocol: 'socks5',
      host: 'proxy1.example',
      port: 3128,
      username: 'user',
      hasPassword: true,
      country: 'BR',
      maxConnections: 3,
      status: 'healthy',
      active: true,
      isGlobal: false,
      companyId: w.acme.id,
      assignedConnections: 0,
      lastLatencyMs: 10,
    });
    expect(p).to.not.have.any.keys('password', 'passwordSealed');
    expect(w.checker.checked.at(-1)).to.deep.equal({ protocol: 'socks5', host: 'proxy1.example', port: 3128, username: 'user', password: 's3cret-pass' });
    const stored = (await w.ports.proxies.findVisible(w.acme.id, p.id))!;
    expect(stored.passwordSealed).to.be.a('string').and.not.include('s3cret-pass');
    w.checker.fail('dead.example', 'connect ECONNREFUSED');
    const failed = await w.proxy({ name: 'Dead', host: 'dead.example' }).catch((e) => e);
    expect(failed).to.include({ code: 'ERR_PROXY_CHECK_FAILED' });
    expect(failed.details).to.deep.equal({ reason: 'connect ECONNREFUSED' });
    expect((await w.api.listProxies.execute({ actor: w.admin })).map((x) => x.name)).to.deep.equal(['BR 1']);
    expect(await w.proxy({ name: 'Dead', host: 'dead.example', skipCheck: true })).to.include({ status: 'unchecked', lastLatencyMs: null, lastCheckAt: null });
  });

  it('applies the address rule whether or not the proxy is checked, on create and on edit; an unchecked edit forgets the old findings', async () => {
    const w = await proxyWorld();
    w.checker.forbid('169.254.169.254');
    for (const fields of [{}, { skipCheck: true }, { active: false }]) {
      expect(await code(w.proxy({ host: '169.254.169.254', ...fields }))).to.equal('ERR_URL_NOT_ALLOWED');
    }
    const p = await w.proxy();
    expect(await code(w.api.updateProxy.execute({ actor: w.admin, proxyId: p.id, host: '169.254.169.254', skipCheck: true }))).to.equal('ERR_URL_NOT_ALLOWED');
    await w.api.updateProxy.execute({ actor: w.admin, proxyId: p.id, active: false });
    expect(await code(w.api.updateProxy.execute({ actor: w.admin, proxyId: p.id, host: '169.254.169.254' }))).to.equal('ERR_URL_NOT_ALLOWED');
    expect((await w.ports.proxies.findVisible(w.acme.id, p.id))!).to.include({ host: 'proxy1.example', status: 'disabled' });
    const moved = await w.api.updateProxy.execute({ actor: w.admin, proxyId: p.id, host: 'proxy2.example', active: true, skipCheck: true });
    expect(moved).to.include({ host: 'proxy2.example', status: 'unchecked', active: true, lastLatencyMs: null, lastCheckAt: null });
    await w.api.checkProxies.execute();
    expect((await w.ports.proxies.findVisible(w.acme.id, p.id))!).to.include({ status: 'healthy', lastLatencyMs: 10 });
  });

  it('refuses malformed proxies', async () => {
    const w = await proxyWorld();
    expect(await code(w.proxy({ name: ' ' }))).to.equal('ERR_PROXY_INVALID_NAME');
    expect(await code(w.proxy({ host: 'bad host!' }))).to.equal('ERR_PROXY_INVALID_HOST');
    expect(await code(w.proxy({ port: 70000 }))).to.equal('ERR_PROXY_INVALID_PORT');
    expect(await code(w.proxy({ country: 'BRA' }))).to.equal('ERR_PROXY_INVALID_COUNTRY');
    expect(await code(w.proxy({ maxConnections: 0 }))).to.equal('ERR_PROXY_INVALID_CAPACITY');
    expect(await code(w.proxy({ password: 'lonely' }))).to.equal('ERR_PROXY_INVALID_CREDENTIALS');
    expect(await code(w.proxy({ username: 'é' }))).to.equal('ERR_PROXY_INVALID_CREDENTIALS');
    expect(await w.api.listProxies.execute({ actor: w.admin })).to.deep.equal([]);
  });

  it("keeps pools apart: the super admin's is global and read-only to admins; another company's proxy is 404; operators are refused", async () => {
    const w = await proxyWorld();
    const global = await w.proxy({ name: 'Platform' }, w.root);
    const mine = await w.proxy({ name: 'Mine' });
    const theirs = await w.proxy({ name: 'Theirs' }, w.otherAdmin);
    expect(global).to.include({ isGlobal: true, companyId: null });
    expect((await w.api.listProxies.execute({ actor: w.admin })).map((p) => p.name)).to.deep.equal(['Mine', 'Platform']);
    expect((await w.api.listProxies.execute({ actor: w.otherAdmin })).map((p) => p.name)).to.deep.equal(['Platform', 'Theirs']);
    expect(await code(w.api.updateProxy.execute({ actor: w.admin, proxyId: global.id, name: 'Renamed' }))).to.equal('ERR_PROXY_READ_ONLY');
    expect(await code(w.api.deleteProxy.execute({ actor: w.admin, proxyId: global.id }))).to.equal('ERR_PROXY_READ_ONLY');
    expect(await code(w.api.updateProxy.execute({ actor: w.admin, proxyId: theirs.id, name: 'Mine now' }))).to.equal('ERR_NO_PROXY_FOUND');
    expect(await code(w.api.assignProxy.execute({ actor: w.admin, chatappId: w.connection.id, proxyId: theirs.id }))).to.equal('ERR_NO_PROXY_FOUND');
    expect(await code(w.api.disableProblematic.execute({ actor: w.admin, proxyId: theirs.id }))).to.equal('ERR_NO_PROXY_FOUND');
    expect(await code(w.api.listProxies.execute({ actor: w.ana }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.proxy({}, w.ana))).to.equal('ERR_NO_PERMISSION');
    expect(await w.api.updateProxy.execute({ actor: w.root, proxyId: global.id, name: 'Platform BR' })).to.include({ name: 'Platform BR' });
    expect(await code(w.api.assignProxy.execute({ actor: w.admin, chatappId: w.otherConnection.id, proxyId: mine.id }))).to.equal('ERR_NO_CONNECTION_FOUND');
  });

  it('keeps the password when an edit leaves it out, checks a changed address, and restarts the sessions on it', async () => {
    const w = await proxyWorld();
    const p = await w.proxy({ username: 'u', password: 'first-pass' });
    await w.api.assignProxy.execute({ actor: w.admin, chatappId: w.connection.id, proxyId: p.id });
    const before = w.restarts().length;
    await w.api.updateProxy.execute({ actor: w.admin, proxyId: p.id, maxConnections: 9 });
    expect(w.restarts().length).to.equal(before);
    w.checker.fail('moved.example');
    expect(await code(w.api.updateProxy.execute({ actor: w.admin, proxyId: p.id, host: 'moved.example' }))).to.equal('ERR_PROXY_CHECK_FAILED');
    expect((await w.ports.proxies.findVisible(w.acme.id, p.id))!.host).to.equal('proxy1.example');
    w.checker.heal('moved.example');
    const moved = await w.api.updateProxy.execute({ actor: w.admin, proxyId: p.id, host: 'moved.example' });
    expect(moved).to.include({ host: 'moved.example', hasPassword: true, maxConnections: 9, assignedConnections: 1 });
    expect(w.checker.checked.at(-1)).to.include({ host: 'moved.example', username: 'u', password: 'first-pass' });
    expect(w.restarts().slice(before)).to.deep.equal([w.connection.id]);
    const cleared = await w.api.updateProxy.execute({ actor: w.admin, proxyId: p.id, username: null, password: null });
    expect(cleared).to.include({ username: null, hasPassword: false });
  });

  it('answers 409 when deleting a proxy in use, and moves its connections with force', async () => {
    const w = await proxyWorld();
    const a = await w.proxy({ name: 'A' });
    const b = await w.proxy({ name: 'B', host: 'proxy2.example' });
    await w.api.assignProxy.execute({ actor: w.admin, chatappId: w.connection.id, proxyId: a.id });
    expect(await code(w.api.deleteProxy.execute({ actor: w.admin, proxyId: a.id }))).to.equal('ERR_PROXY_IN_USE');
    await w.api.deleteProxy.execute({ actor: w.admin, proxyId: a.id, force: true });
    expect(await w.assignment(w.connection.id)).to.equal(b.id);
    expect((await w.api.listProxies.execute({ actor: w.admin })).map((p) => p.name)).to.deep.equal(['B']);
    await w.api.deleteProxy.execute({ actor: w.admin, proxyId: b.id, force: true });
    expect(await w.assignment(w.connection.id)).to.equal(null);
  });
});

describe('Proxies: assignment and balancing', () => {
  it('assigns a named proxy or the least-loaded healthy one, within capacity, and restarts only running sessions', async () => {
    const w = await proxyWorld();
    const a = await w.proxy({ name: 'A', maxConnections: 1 });
    const b = await w.proxy({ name: 'B', host: 'proxy2.example', maxConnections: 2 });
    const first = await w.api.assignProxy.execute({ actor: w.admin, chatappId: w.connection.id, proxyId: a.id });
    expect(first).to.include({ chatappId: w.connection.id, proxyId: a.id, restarted: true });
    expect(await code(w.api.assignProxy.execute({ actor: w.admin, chatappId: w.second.id, proxyId: a.id }))).to.equal('ERR_PROXY_FULL');
    expect(await w.api.assignProxy.execute({ actor: w.admin, chatappId: w.second.id })).to.include({ proxyId: b.id });
    expect(await w.api.assignProxy.execute({ actor: w.admin, chatappId: w.stopped.id })).to.include({ proxyId: b.id, restarted: false });
    expect(await code(w.api.assignProxy.execute({ actor: w.admin, chatappId: w.third.id }))).to.equal('ERR_PROXY_NO_CAPACITY');
    expect(await code(w.api.assignProxy.execute({ actor: w.admin, chatappId: w.page.id }))).to.equal('ERR_PROXY_NOT_FOR_CONNECTION');
    expect(await code(w.api.assignProxy.execute({ actor: w.admin, chatappId: 9999 }))).to.equal('ERR_NO_CONNECTION_FOUND');
    expect(w.restarts()).to.deep.equal([w.connection.id, w.second.id]);
    const session = w.ports.realtime.events.filter((e) => e.entity === 'chatappSession').map((e) => (e.data as { session: { id: number } }).session.id);
    expect(session).to.deep.equal([w.connection.id, w.second.id]);
    expect((await w.ports.connections.findById(w.acme.id, w.connection.id))!.status).to.equal('OPENING');

    await w.api.removeProxyAssignment.execute({ actor: w.admin, chatappId: w.connection.id });
    expect(await w.assignment(w.connection.id)).to.equal(null);
    expect(await code(w.api.removeProxyAssignment.execute({ actor: w.admin, chatappId: w.connection.id }))).to.equal('ERR_NO_PROXY_ASSIGNMENT');
    expect(await code(w.api.removeProxyAssignment.execute({ actor: w.admin, chatappId: w.otherConnection.id }))).to.equal('ERR_NO_CONNECTION_FOUND');
  });

  it('sends the assigned proxy with every start and restart of the session, and none once removed', async () => {
    const w = await proxyWorld();
    const outbox = w.ports.outbox as InMemoryOutbox;
    const p = await w.proxy({ protocol: 'socks5', username: 'user', password: 'in-clear-for-the-runtime' });
    const controls = () =>
      outbox.entries.map((e) => e.payload as { type: string; action: string; chatappId: number; proxy?: unknown }).filter((c) => c.type === 'SessionControl');
    await w.api.assignProxy.execute({ actor: w.admin, chatappId: w.connection.id, proxyId: p.id });
    const endpoint = { protocol: 'socks5', host: 'proxy1.example', port: 3128, username: 'user', password: 'in-clear-for-the-runtime' };
    expect(controls().at(-1)).to.deep.include({ action: 'restart', chatappId: w.connection.id, proxy: endpoint });
    await w.app.connections.controlSession.execute({ actor: w.admin, connectionId: w.connection.id, action: 'start' });
    expect(controls().at(-1)).to.deep.include({ action: 'start', proxy: endpoint });
    await w.app.connections.controlSession.execute({ actor: w.admin, connectionId: w.connection.id, action: 'logout' });
    expect(controls().at(-1)).to.not.have.property('proxy');
    await w.app.connections.controlSession.execute({ actor: w.admin, connectionId: w.second.id, action: 'start' });
    expect(controls().at(-1)).to.not.have.property('proxy');
    await w.app.connections.controlSession.execute({ actor: w.admin, connectionId: w.connection.id, action: 'start' });
    await w.api.removeProxyAssignment.execute({ actor: w.admin, chatappId: w.connection.id });
    expect(controls().at(-1)).to.deep.include({ action: 'restart', chatappId: w.connection.id });
    expect(controls().at(-1)).to.not.have.property('proxy');
  });

  it('refuses a disabled or failing proxy for an explicit assignment', async () => {
    const w = await proxyWorld();
    const a = await w.proxy({ name: 'A', active: false });
    expect(a).to.include({ status: 'disabled', active: false });
    expect(await code(w.api.assignProxy.execute({ actor: w.admin, chatappId: w.connection.id, proxyId: a.id }))).to.equal('ERR_PROXY_UNAVAILABLE');
  });

  it('auto-balances connections without a proxy, least-loaded first, and reports what had no room', async () => {
    const w = await proxyWorld();
    const a = await w.proxy({ name: 'A', maxConnections: 2 });
    const b = await w.proxy({ name: 'B', host: 'proxy2.example', maxConnections: 1 });
    const result = await w.api.autoBalance.execute({ actor: w.admin });
    expect(result.moved).to.deep.equal([
      { chatappId: w.connection.id, from: null, to: a.id },
      { chatappId: w.second.id, from: null, to: b.id },
      { chatappId: w.third.id, from: null, to: a.id },
    ]);
    expect(result.skipped).to.deep.equal([{ chatappId: w.stopped.id, reason: 'no-capacity' }]);
    expect(await w.assignment(w.otherConnection.id, w.other.id)).to.equal(null);
    expect((await w.api.autoBalance.execute({ actor: w.admin })).moved).to.deep.equal([]);
  });

  it('force-reassigns connections off failing or over-full proxies', async () => {
    const w = await proxyWorld();
    const a = await w.proxy({ name: 'A', maxConnections: 3 });
    const b = await w.proxy({ name: 'B', host: 'proxy2.example', maxConnections: 3 });
    for (const c of [w.connection, w.second, w.third]) await w.api.assignProxy.execute({ actor: w.admin, chatappId: c.id, proxyId: a.id });
    await w.api.updateProxy.execute({ actor: w.admin, proxyId: a.id, maxConnections: 2 });
    const result = await w.api.forceReassign.execute({ actor: w.admin });
    expect(result.moved).to.have.length(1);
    expect(result.moved[0]).to.include({ from: a.id, to: b.id });
    expect((await w.ports.proxyAssignments.countByProxy([a.id, b.id])).get(a.id)).to.equal(2);
  });

  it('rebalances everything evenly, moving only what must move', async () => {
    const w = await proxyWorld();
    const a = await w.proxy({ name: 'A', maxConnections: 10 });
    for (const c of [w.connection, w.second, w.third, w.stopped]) await w.api.assignProxy.execute({ actor: w.admin, chatappId: c.id, proxyId: a.id });
    const b = await w.proxy({ name: 'B', host: 'proxy2.example', maxConnections: 10 });
    const result = await w.api.forceRebalanceAll.execute({ actor: w.admin });
    expect(result.moved).to.have.length(2);
    expect(result.moved.every((m) => m.from === a.id && m.to === b.id)).to.equal(true);
    const counts = await w.ports.proxyAssignments.countByProxy([a.id, b.id]);
    expect([counts.get(a.id), counts.get(b.id)]).to.deep.equal([2, 2]);
    expect((await w.api.forceRebalanceAll.execute({ actor: w.admin })).moved).to.deep.equal([]);
  });

  it('disables a problematic proxy with its reason and moves its connections', async () => {
    const w = await proxyWorld();
    const a = await w.proxy({ name: 'A' });
    const b = await w.proxy({ name: 'B', host: 'proxy2.example' });
    await w.api.assignProxy.execute({ actor: w.admin, chatappId: w.connection.id, proxyId: a.id });
    const result = await w.api.disableProblematic.execute({ actor: w.admin, proxyId: a.id, reason: 'banned numbers' });
    expect(result).to.deep.equal({ proxyId: a.id, moved: [{ chatappId: w.connection.id, from: a.id, to: b.id }], skipped: [] });
    const [listed] = (await w.api.listProxies.execute({ actor: w.admin })).filter((p) => p.id === a.id);
    expect(listed).to.include({ status: 'disabled', active: false, disabledReason: 'banned numbers', assignedConnections: 0 });
    expect(await code(w.api.disableProblematic.execute({ actor: w.admin, proxyId: a.id, reason: 'x'.repeat(501) }))).to.equal('ERR_PROXY_INVALID_REASON');
    expect(await w.api.updateProxy.execute({ actor: w.admin, proxyId: a.id, active: true })).to.include({ status: 'healthy', disabledReason: null });
  });
});

describe('Proxies: health and figures', () => {
  it('counts failures in a row, marks a proxy failing at the limit and moves its connections; a pass heals it', async () => {
    const w = await proxyWorld();
    const a = await w.proxy({ name: 'A' });
    const b = await w.proxy({ name: 'B', host: 'proxy2.example' });
    await w.api.assignProxy.execute({ actor: w.admin, chatappId: w.connection.id, proxyId: a.id });
    w.checker.fail('proxy1.example', 'timeout');
    await w.api.checkProxies.execute();
    await w.api.checkProxies.execute();
    let stored = (await w.ports.proxies.findVisible(w.acme.id, a.id))!;
    expect(stored).to.include({ status: 'degraded', failCount: 2, lastError: 'timeout' });
    expect(await w.assignment(w.connection.id)).to.equal(a.id);
    expect(await w.api.checkProxies.execute()).to.deep.equal({ checked: 2, failing: 1 });
    stored = (await w.ports.proxies.findVisible(w.acme.id, a.id))!;
    expect(stored).to.include({ status: 'failing', failCount: 3 });
    expect(await w.assignment(w.connection.id)).to.equal(b.id);
    w.checker.heal('proxy1.example');
    await w.api.checkProxies.execute();
    expect((await w.ports.proxies.findVisible(w.acme.id, a.id))!).to.include({ status: 'healthy', failCount: 0, lastError: null });
  });

  it('sums the pool from what is stored', async () => {
    const w = await proxyWorld();
    const a = await w.proxy({ name: 'A', maxConnections: 4, country: 'BR' });
    await w.proxy({ name: 'B', host: 'proxy2.example', maxConnections: 2, active: false });
    await w.proxy({ name: 'Global', host: 'proxy3.example', maxConnections: 3, country: 'US' }, w.root);
    await w.api.assignProxy.execute({ actor: w.admin, chatappId: w.connection.id, proxyId: a.id });
    const stats = await w.api.proxyStats.execute({ actor: w.admin });
    expect(stats).to.deep.include({ total: 3, active: 2, disabled: 1, capacity: 7, used: 1, free: 6, unassignedConnections: 3 });
    expect(stats.byStatus).to.deep.equal({ healthy: 2, unchecked: 0, degraded: 0, failing: 0, disabled: 1 });
    expect(stats.byCountry).to.deep.equal({ BR: 1, unknown: 1, US: 1 });
    expect(stats.perProxy.find((p) => p.id === a.id)).to.deep.include({ assigned: 1, capacity: 4, utilisation: 0.25 });
    expect(await code(w.api.proxyStats.execute({ actor: w.ana }))).to.equal('ERR_NO_PERMISSION');
  });
});
