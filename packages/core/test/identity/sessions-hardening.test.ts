import { expect } from 'chai';
import { createApplication, PLATFORM_INTEGRATION, type Actor, type User } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';

/** Acme (admin and operator Ana) and Other, each on its own private plan, beside a public one. */
async function world() {
  const ports = createInMemoryPorts();
  // Verifications yield like a real hash does, so parallel logins interleave; each one is counted.
  let verified = 0;
  const hasher = ports.hasher;
  const countingHasher = {
    hash: (plain: string) => hasher.hash(plain),
    verify: async (hash: string, plain: string) => {
      verified++;
      await new Promise((r) => setImmediate(r));
      return hasher.verify(hash, plain);
    },
  };
  const app = createApplication({ ...ports, hasher: countingHasher });
  const publicPlan = await ports.plans.add(planFixture('Public'));
  const acmePlan = await ports.plans.add(planFixture('Acme deal', { isPublic: false }));
  const otherPlan = await ports.plans.add(planFixture('Other deal', { isPublic: false }));
  const acme = await ports.companies.add(companyFixture(acmePlan.id, 'Acme'));
  const other = await ports.companies.add(companyFixture(otherPlan.id, 'Other'));
  const root = await ports.companies.add(companyFixture(publicPlan.id, 'Platform'));
  const passwordHash = await hasher.hash('right-password');
  const add = async (companyId: number, email: string, overrides: Partial<User> = {}) => {
    const u = await ports.users.add(userFixture(companyId, email, { passwordHash, ...overrides }));
    return { userId: u.id, companyId, profile: u.profile } satisfies Actor;
  };
  const admin = await add(acme.id, 'admin@acme.test', { profile: 'admin' });
  const ana = await add(acme.id, 'ana@acme.test');
  const superUser = await add(root.id, 'root@platform.test', { profile: 'super' });
  const login = (email: string, password = 'right-password', ip = '10.0.0.1') => app.identity.login.execute({ email, password, ip });
  return { ports, app, acme, other, admin, ana, superUser, publicPlan, acmePlan, otherPlan, login, verified: () => verified };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? String(e),
  );

describe('Sessions hardening (in-memory)', () => {
  describe('login throttle', () => {
    it('20 parallel logins for one e-mail verify at most 5 passwords, and the right one is refused past the limit', async () => {
      const w = await world();
      const attempts = Array.from({ length: 20 }, (_, i) => codeOf(w.login('ana@acme.test', i === 19 ? 'right-password' : `wrong-${i}`)));
      const codes = await Promise.all(attempts);
      expect(w.verified()).to.be.at.most(5);
      expect(codes.filter((c) => c === 'ERR_TOO_MANY_LOGIN_ATTEMPTS')).to.have.length(15);
      expect(codes[19]).to.equal('ERR_TOO_MANY_LOGIN_ATTEMPTS');
    });

    it('keeps the per-IP limit across e-mails, and successful logins do not use it up', async () => {
      const w = await world();
      for (let i = 0; i < 40; i++) expect(await codeOf(w.login('ana@acme.test'))).to.equal('ok');
      const codes = await Promise.all(Array.from({ length: 40 }, (_, i) => codeOf(w.login(`ghost${i}@nowhere.test`, 'x'))));
      expect(codes.filter((c) => c === 'ERR_INVALID_CREDENTIALS')).to.have.length(30);
      expect(await codeOf(w.login('admin@acme.test'))).to.equal('ERR_TOO_MANY_LOGIN_ATTEMPTS');
      expect(await codeOf(w.login('admin@acme.test', 'right-password', '10.0.0.2'))).to.equal('ok');
    });

    it('a successful login resets the e-mail count', async () => {
      const w = await world();
      for (let i = 0; i < 4; i++) await codeOf(w.login('ana@acme.test', 'wrong'));
      expect(await codeOf(w.login('ana@acme.test'))).to.equal('ok');
      for (let i = 0; i < 5; i++) expect(await codeOf(w.login('ana@acme.test', 'wrong'))).to.equal('ERR_INVALID_CREDENTIALS');
      expect(await codeOf(w.login('ana@acme.test'))).to.equal('ERR_TOO_MANY_LOGIN_ATTEMPTS');
    });
  });

  describe('a password change, a deletion or a deactivation ends the sessions at once', () => {
    it('own password change: the earlier access token and refresh token stop working', async () => {
      const w = await world();
      const s = await w.login('ana@acme.test');
      await w.app.identity.updateUser.execute({ actor: w.ana, userId: w.ana.userId, password: 'a-new-password' });
      expect(await codeOf(w.app.identity.authenticate.execute(s.token))).to.equal('ERR_SESSION_EXPIRED');
      expect(await codeOf(w.app.identity.refreshToken.execute({ refreshToken: s.refreshToken }))).to.equal('ERR_SESSION_EXPIRED');
      const again = await w.login('ana@acme.test', 'a-new-password');
      expect((await w.app.identity.authenticate.execute(again.token)).actor.userId).to.equal(w.ana.userId);
    });

    it("password set by an admin: the user's families are revoked, other users keep theirs", async () => {
      const w = await world();
      const ana = await w.login('ana@acme.test');
      const admin = await w.login('admin@acme.test');
      await w.app.identity.updateUser.execute({ actor: w.admin, userId: w.ana.userId, password: 'set-by-admin' });
      expect(await codeOf(w.app.identity.authenticate.execute(ana.token))).to.equal('ERR_SESSION_EXPIRED');
      const sessionId = (await w.ports.tokens.verifyRefresh(ana.refreshToken)).sessionId;
      expect((await w.ports.refreshSessions.find(sessionId))?.revokedAt).to.be.instanceOf(Date);
      expect(await codeOf(w.app.identity.authenticate.execute(admin.token))).to.equal('ok');
      expect(await codeOf(w.app.identity.refreshToken.execute({ refreshToken: admin.refreshToken }))).to.equal('ok');
    });

    it('a profile change revokes the families too', async () => {
      const w = await world();
      const ana = await w.login('ana@acme.test');
      await w.app.identity.updateUser.execute({ actor: w.admin, userId: w.ana.userId, profile: 'admin' });
      const sessionId = (await w.ports.tokens.verifyRefresh(ana.refreshToken)).sessionId;
      expect((await w.ports.refreshSessions.find(sessionId))?.revokedAt).to.be.instanceOf(Date);
      expect(await codeOf(w.app.identity.authenticate.execute(ana.token))).to.equal('ERR_SESSION_EXPIRED');
    });

    it("deactivating a company ends its users' sessions, and re-enabling it does not revive them", async () => {
      const w = await world();
      const admin = await w.login('admin@acme.test');
      const root = await w.login('root@platform.test');
      await w.app.tenancy.updateCompany.execute({ actor: w.superUser, companyId: w.acme.id, status: false });
      expect(await codeOf(w.app.identity.authenticate.execute(admin.token))).to.equal('ERR_SESSION_EXPIRED');
      expect(await codeOf(w.app.identity.refreshToken.execute({ refreshToken: admin.refreshToken }))).to.equal('ERR_SESSION_EXPIRED');
      await w.app.tenancy.updateCompany.execute({ actor: w.superUser, companyId: w.acme.id, status: true });
      expect(await codeOf(w.app.identity.authenticate.execute(admin.token))).to.equal('ERR_SESSION_EXPIRED');
      expect(await codeOf(w.app.identity.authenticate.execute(root.token))).to.equal('ok');
    });

    it("a company made inactive behind the use case's back (a direct write) refuses its users' tokens", async () => {
      const w = await world();
      const ana = await w.login('ana@acme.test');
      await w.ports.companies.update({ ...w.acme, status: false });
      expect(await codeOf(w.app.identity.authenticate.execute(ana.token))).to.equal('ERR_SESSION_EXPIRED');
      expect(await codeOf(w.app.identity.refreshToken.execute({ refreshToken: ana.refreshToken }))).to.equal('ERR_SESSION_EXPIRED');
    });
  });

  describe('refresh grace', () => {
    it('two simultaneous refreshes with the same token both get the same new pair, and the family lives on', async () => {
      const w = await world();
      const s = await w.login('ana@acme.test');
      const [a, b] = await Promise.all([
        w.app.identity.refreshToken.execute({ refreshToken: s.refreshToken }),
        w.app.identity.refreshToken.execute({ refreshToken: s.refreshToken }),
      ]);
      expect(b.token).to.equal(a.token);
      expect(b.refreshToken).to.equal(a.refreshToken);
      expect(await codeOf(w.app.identity.authenticate.execute(a.token))).to.equal('ok');
      const next = await w.app.identity.refreshToken.execute({ refreshToken: a.refreshToken });
      expect(await codeOf(w.app.identity.authenticate.execute(next.token))).to.equal('ok');
    });

    it('a repeat within the window gets the same pair; after the window it is a replay that revokes everything', async () => {
      const w = await world();
      const s = await w.login('ana@acme.test');
      const first = await w.app.identity.refreshToken.execute({ refreshToken: s.refreshToken });
      w.ports.clock.advance(29_000);
      const repeat = await w.app.identity.refreshToken.execute({ refreshToken: s.refreshToken });
      expect([repeat.token, repeat.refreshToken]).to.deep.equal([first.token, first.refreshToken]);
      w.ports.clock.advance(2_000);
      expect(await codeOf(w.app.identity.refreshToken.execute({ refreshToken: s.refreshToken }))).to.equal('ERR_REFRESH_TOKEN_REUSED');
      expect(await codeOf(w.app.identity.refreshToken.execute({ refreshToken: first.refreshToken }))).to.equal('ERR_SESSION_EXPIRED');
      expect(await codeOf(w.app.identity.authenticate.execute(first.token))).to.equal('ERR_SESSION_EXPIRED');
    });

    it('a token two rotations old is a replay even within the window', async () => {
      const w = await world();
      const s = await w.login('ana@acme.test');
      const first = await w.app.identity.refreshToken.execute({ refreshToken: s.refreshToken });
      await w.app.identity.refreshToken.execute({ refreshToken: first.refreshToken });
      expect(await codeOf(w.app.identity.refreshToken.execute({ refreshToken: s.refreshToken }))).to.equal('ERR_REFRESH_TOKEN_REUSED');
    });
  });

  describe('plan reads', () => {
    it("a company user sees public plans and its own, and gets 404 for another company's private plan", async () => {
      const w = await world();
      const names = async (actor: Actor) => (await w.app.tenancy.listPlans.execute({ actor })).map((p) => p.name);
      expect(await names(w.ana)).to.deep.equal(['Public', 'Acme deal']);
      expect(await names(w.admin)).to.deep.equal(['Public', 'Acme deal']);
      expect(await names(w.superUser)).to.deep.equal(['Public', 'Acme deal', 'Other deal']);
      expect(await names(PLATFORM_INTEGRATION)).to.deep.equal(['Public', 'Acme deal', 'Other deal']);
      expect((await w.app.tenancy.listPlans.execute({ actor: null })).map((p) => p.name)).to.deep.equal(['Public']);
      expect(await codeOf(w.app.tenancy.showPlan.execute({ actor: w.ana, planId: w.otherPlan.id }))).to.equal('ERR_NO_PLAN_FOUND');
      expect((await w.app.tenancy.showPlan.execute({ actor: w.ana, planId: w.acmePlan.id })).name).to.equal('Acme deal');
      expect((await w.app.tenancy.showPlan.execute({ actor: w.ana, planId: w.publicPlan.id })).name).to.equal('Public');
      expect((await w.app.tenancy.showPlan.execute({ actor: w.superUser, planId: w.otherPlan.id })).name).to.equal('Other deal');
    });
  });
});
