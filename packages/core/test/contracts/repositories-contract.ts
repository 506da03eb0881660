import { expect } from 'chai';
import {
  type Companies,
  type NewCompany,
  type NewPlan,
  type NewUser,
  type Plans,
  type RefreshSessions,
  type Settings,
  type Transaction,
  type Users,
  PLAN_FEATURES,
} from '../../src/index.js';

export interface RepositoryFixture {
  readonly users: Users;
  readonly refreshSessions: RefreshSessions;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly settings: Settings;
  readonly tx: Transaction;
  /** Whether a failed transaction leaves nothing behind (true for databases). */
  readonly rollsBack: boolean;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');

export function planFixture(name: string, overrides: Partial<NewPlan> = {}): NewPlan {
  return {
    name,
    users: 5,
    connections: 2,
    queues: 3,
    amount: '99.90',
    recurrence: 'MENSAL',
    trial: false,
    trialDays: 0,
    isPublic: true,
    features: Object.fromEntries(PLAN_FEATURES.map((f) => [f, true])) as NewPlan['features'],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function companyFixture(planId: number, name: string, overrides: Partial<NewCompany> = {}): NewCompany {
  return {
    name,
    email: null,
    phone: null,
    document: null,
    status: true,
    planId,
    dueDate: '2026-12-31',
    recurrence: 'MENSAL',
    paymentMethod: null,
    schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }],
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** Two companies on one plan, for the tenancy checks of a contract suite: their ids. */
export async function twoCompanies(r: {
  plans: { add(plan: NewPlan): Promise<{ id: number }> };
  companies: { add(company: NewCompany): Promise<{ id: number }> };
}): Promise<[number, number]> {
  const plan = await r.plans.add(planFixture('P'));
  return [(await r.companies.add(companyFixture(plan.id, 'One'))).id, (await r.companies.add(companyFixture(plan.id, 'Two'))).id];
}

export function userFixture(companyId: number, email: string, overrides: Partial<NewUser> = {}): NewUser {
  return {
    companyId,
    name: email.split('@')[0]!,
    email,
    passwordHash: 'hash',
    profile: 'user',
    tokenVersion: 0,
    mustChangePassword: false,
    online: false,
    profileImage: null,
    allTicket: 'disable',
    defaultTicketsManagerWidth: 550,
    defaultTheme: 'light',
    defaultMenu: 'open',
    startWork: null,
    endWork: null,
    farewellMessage: null,
    lastLoginAt: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** One suite for every adapter of the identity, tenancy and settings ports. */
export function describeRepositoriesContract(name: string, make: () => Promise<RepositoryFixture>) {
  describe(`Repositories contract: ${name}`, () => {
    let r: RepositoryFixture;
    beforeEach(async () => {
      r = await make();
    });

    it('stores plans, finds them by id and by name in any case, and lists public ones', async () => {
      const basic = await r.plans.add(planFixture('Básico'));
      await r.plans.add(planFixture('Hidden', { isPublic: false }));
      expect(basic.id).to.be.a('number');
      const found = await r.plans.findById(basic.id);
      expect(found).to.include({ name: 'Básico', users: 5, amount: '99.90', isPublic: true });
      expect(found!.features.campaigns).to.equal(true);
      expect(found!.createdAt.toISOString()).to.equal(T0.toISOString());
      expect((await r.plans.findByName('básico'))?.id).to.equal(basic.id);
      expect((await r.plans.list({ onlyPublic: true })).map((p) => p.name)).to.deep.equal(['Básico']);
      expect((await r.plans.list({ search: 'basico' })).map((p) => p.name)).to.deep.equal(['Básico']);
      expect(await r.plans.findById(999_999)).to.equal(null);
    });

    it('updates and removes plans', async () => {
      const plan = await r.plans.add(planFixture('P1'));
      plan.users = 50;
      plan.features.kanban = false;
      await r.plans.update(plan);
      const again = await r.plans.findById(plan.id);
      expect(again!.users).to.equal(50);
      expect(again!.features.kanban).to.equal(false);
      await r.plans.remove(plan.id);
      expect(await r.plans.findById(plan.id)).to.equal(null);
    });

    it('stores companies with their schedules and pages and searches them without accents', async () => {
      const plan = await r.plans.add(planFixture('P'));
      const a = await r.companies.add(companyFixture(plan.id, 'Açaí Distribuidora', { email: 'acai@example.com' }));
      await r.companies.add(companyFixture(plan.id, 'Beta'));
      await r.companies.add(companyFixture(plan.id, 'Gamma'));
      const got = await r.companies.findById(a.id);
      expect(got).to.include({ name: 'Açaí Distribuidora', dueDate: '2026-12-31', status: true });
      expect(got!.schedules).to.deep.equal([{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }]);
      expect((await r.companies.findByEmail('acai@example.com'))?.id).to.equal(a.id);
      const page = await r.companies.list({ page: { offset: 1, limit: 1 } });
      expect(page.count).to.equal(3);
      expect(page.rows.map((c) => c.name)).to.deep.equal(['Beta']);
      expect((await r.companies.list({ search: 'ACAI', page: { offset: 0, limit: 10 } })).rows.map((c) => c.id)).to.deep.equal([a.id]);
      expect(await r.companies.countByPlan(plan.id)).to.equal(3);
      expect((await r.companies.listAll()).length).to.equal(3);
    });

    it('removing a company removes its users', async () => {
      const plan = await r.plans.add(planFixture('P'));
      const c = await r.companies.add(companyFixture(plan.id, 'Gone'));
      const u = await r.users.add(userFixture(c.id, 'gone@example.com'));
      await r.companies.remove(c.id);
      expect(await r.companies.findById(c.id)).to.equal(null);
      expect(await r.users.findById(null, u.id)).to.equal(null);
    });

    it('keeps users inside their company: reads by id filter by tenant', async () => {
      const plan = await r.plans.add(planFixture('P'));
      const c1 = await r.companies.add(companyFixture(plan.id, 'One'));
      const c2 = await r.companies.add(companyFixture(plan.id, 'Two'));
      const u1 = await r.users.add(userFixture(c1.id, 'ana@one.com', { name: 'Ána Souza' }));
      await r.users.add(userFixture(c1.id, 'bruno@one.com', { name: 'Bruno' }));
      await r.users.add(userFixture(c2.id, 'carla@two.com', { name: 'Carla' }));
      expect(await r.users.findById(c2.id, u1.id)).to.equal(null);
      expect((await r.users.findById(c1.id, u1.id))?.email).to.equal('ana@one.com');
      expect((await r.users.findById(null, u1.id))?.name).to.equal('Ána Souza');
      expect((await r.users.findByEmail('bruno@one.com'))?.companyId).to.equal(c1.id);
      expect(await r.users.countByCompany(c1.id)).to.equal(2);
      const listed = await r.users.list({ companyId: c1.id, search: 'ana', page: { offset: 0, limit: 10 } });
      expect(listed.rows.map((u) => u.email)).to.deep.equal(['ana@one.com']);
      expect((await r.users.listAll(c1.id)).map((u) => u.name)).to.deep.equal(['Ána Souza', 'Bruno']);
      expect((await r.users.lastLoginByCompany([c1.id, c2.id])).size).to.equal(0);
      const bruno = (await r.users.findByEmail('bruno@one.com'))!;
      await r.users.update({ ...u1, lastLoginAt: new Date('2026-03-01T10:00:00.000Z') });
      await r.users.update({ ...bruno, lastLoginAt: new Date('2026-03-02T08:30:00.000Z') });
      const last = await r.users.lastLoginByCompany([c1.id, c2.id]);
      expect([...last].map(([id, at]) => [id, at.toISOString()])).to.deep.equal([[c1.id, '2026-03-02T08:30:00.000Z']]);
      expect((await r.users.lastLoginByCompany([])).size).to.equal(0);
      await r.users.remove(c2.id, u1.id);
      expect(await r.users.findById(null, u1.id)).to.not.equal(null);
      await r.users.remove(c1.id, u1.id);
      expect(await r.users.findById(null, u1.id)).to.equal(null);
    });

    it('updates every user field', async () => {
      const plan = await r.plans.add(planFixture('P'));
      const c = await r.companies.add(companyFixture(plan.id, 'C'));
      const u = await r.users.add(userFixture(c.id, 'x@c.com'));
      const at = new Date('2026-04-01T00:00:00.000Z');
      await r.users.update({
        ...u,
        name: 'Xavier',
        profile: 'admin',
        tokenVersion: 3,
        mustChangePassword: true,
        lastLoginAt: at,
        profileImage: 'http://x/y.png',
      });
      const again = await r.users.findById(c.id, u.id);
      expect(again).to.include({ name: 'Xavier', profile: 'admin', tokenVersion: 3, mustChangePassword: true, profileImage: 'http://x/y.png' });
      expect(again!.lastLoginAt!.toISOString()).to.equal(at.toISOString());
    });

    it('rotates refresh sessions only from the current token id', async () => {
      const plan = await r.plans.add(planFixture('P'));
      const c = await r.companies.add(companyFixture(plan.id, 'C'));
      const u = await r.users.add(userFixture(c.id, 's@c.com'));
      const id = '11111111-1111-4111-8111-111111111111';
      const j1 = '22222222-2222-4222-8222-222222222222';
      const j2 = '33333333-3333-4333-8333-333333333333';
      await r.refreshSessions.create({
        id,
        userId: u.id,
        companyId: c.id,
        currentJti: j1,
        previousJti: null,
        rotatedAt: null,
        expiresAt: new Date('2026-05-01T00:00:00Z'),
        revokedAt: null,
        createdAt: T0,
      });
      expect(await r.refreshSessions.find(id)).to.include({ previousJti: null, rotatedAt: null });
      const at = new Date('2026-03-01T10:00:00.123Z');
      expect(await r.refreshSessions.rotate(id, j1, j2, new Date('2026-05-02T00:00:00Z'), at)).to.equal(true);
      expect(await r.refreshSessions.rotate(id, j1, j2, new Date('2026-05-02T00:00:00Z'), at)).to.equal(false);
      const rotated = await r.refreshSessions.find(id);
      expect(rotated).to.include({ currentJti: j2, previousJti: j1 });
      expect(rotated?.rotatedAt?.toISOString()).to.equal(at.toISOString());
      expect(rotated?.expiresAt.toISOString()).to.equal('2026-05-02T00:00:00.000Z');
      await r.refreshSessions.revokeAllOfUser(u.id, T0);
      expect((await r.refreshSessions.find(id))?.revokedAt?.toISOString()).to.equal(T0.toISOString());
      expect(await r.refreshSessions.rotate(id, j2, j1, new Date('2026-05-02T00:00:00Z'), at)).to.equal(false);
    });

    it("ends a company's sessions: every user's token version bumped, every family revoked, other companies untouched", async () => {
      const plan = await r.plans.add(planFixture('P'));
      const c1 = await r.companies.add(companyFixture(plan.id, 'C1'));
      const c2 = await r.companies.add(companyFixture(plan.id, 'C2'));
      const a = await r.users.add(userFixture(c1.id, 'a@c1.com', { tokenVersion: 2 }));
      const b = await r.users.add(userFixture(c1.id, 'b@c1.com'));
      const other = await r.users.add(userFixture(c2.id, 'o@c2.com'));
      const session = (n: number, userId: number, companyId: number) => ({
        id: `4444444${n}-4444-4444-8444-444444444444`,
        userId,
        companyId,
        currentJti: `5555555${n}-5555-4555-8555-555555555555`,
        previousJti: null,
        rotatedAt: null,
        expiresAt: new Date('2026-05-01T00:00:00Z'),
        revokedAt: null,
        createdAt: T0,
      });
      for (const s of [session(1, a.id, c1.id), session(2, b.id, c1.id), session(3, other.id, c2.id)]) await r.refreshSessions.create(s);
      await r.tx.run(async () => {
        await r.users.bumpTokenVersionsOfCompany(c1.id);
        await r.refreshSessions.revokeAllOfCompany(c1.id, T0);
      });
      expect((await r.users.findById(null, a.id))?.tokenVersion).to.equal(3);
      expect((await r.users.findById(null, b.id))?.tokenVersion).to.equal(1);
      expect((await r.users.findById(null, other.id))?.tokenVersion).to.equal(0);
      expect((await r.refreshSessions.find(session(1, 0, 0).id))?.revokedAt?.toISOString()).to.equal(T0.toISOString());
      expect((await r.refreshSessions.find(session(2, 0, 0).id))?.revokedAt?.toISOString()).to.equal(T0.toISOString());
      expect((await r.refreshSessions.find(session(3, 0, 0).id))?.revokedAt).to.equal(null);
    });

    it('keeps company and global settings apart and upserts them', async () => {
      const plan = await r.plans.add(planFixture('P'));
      const c1 = await r.companies.add(companyFixture(plan.id, 'C1'));
      const c2 = await r.companies.add(companyFixture(plan.id, 'C2'));
      await r.settings.put(c1.id, 'userRating', 'enabled', T0);
      await r.settings.put(c1.id, 'userRating', 'disabled', T0);
      await r.settings.put(c2.id, 'userRating', 'enabled', T0);
      await r.settings.put(null, 'appName', 'Desk', T0);
      expect(await r.settings.get(c1.id, 'userRating')).to.equal('disabled');
      expect(await r.settings.get(c2.id, 'userRating')).to.equal('enabled');
      expect(await r.settings.get(c1.id, 'appName')).to.equal(null);
      expect(await r.settings.get(null, 'appName')).to.equal('Desk');
      expect([...(await r.settings.all(c1.id)).entries()]).to.deep.equal([['userRating', 'disabled']]);
      expect([...(await r.settings.all(null)).entries()]).to.deep.equal([['appName', 'Desk']]);
    });

    it('a failed transaction leaves nothing written (databases only)', async function () {
      if (!r.rollsBack) this.skip();
      const plan = await r.plans.add(planFixture('P'));
      await r.tx
        .run(async () => {
          await r.companies.add(companyFixture(plan.id, 'Half'));
          throw new Error('boom');
        })
        .catch(() => undefined);
      expect((await r.companies.listAll()).map((c) => c.name)).to.not.include('Half');
    });

    it('writes inside a transaction are visible to reads in it and committed after', async () => {
      const plan = await r.plans.add(planFixture('P'));
      const id = await r.tx.run(async () => {
        const c = await r.companies.add(companyFixture(plan.id, 'Inside'));
        expect((await r.companies.findById(c.id))?.name).to.equal('Inside');
        return c.id;
      });
      expect((await r.companies.findById(id))?.name).to.equal('Inside');
    });
  });
}
