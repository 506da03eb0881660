import { expect } from 'chai';
import { ForbiddenError, NotFoundError } from '../../src/index.js';
import {
  FixedClock,
  InMemoryCompanies,
  InMemoryConnections,
  InMemoryQueues,
  InMemoryPlans,
  InMemoryRefreshSessions,
  InMemoryUsers,
  InsecureTestPasswordHasher,
  RecordingRealtime,
  SerialTransaction,
} from '../../src/testing.js';
import { CreateUser } from '../../src/identity/create-user.js';
import { UpdateUser } from '../../src/identity/update-user.js';
import { PlanGuard } from '../../src/tenancy/plan-guard.js';
import { QueueUserLinks } from '../../src/compose/user-links.js';
import { UserDetailsReader } from '../../src/identity/user-details.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';

async function setup() {
  const clock = new FixedClock();
  const users = new InMemoryUsers();
  const companies = new InMemoryCompanies();
  const plans = new InMemoryPlans();
  const realtime = new RecordingRealtime();
  const planGuard = new PlanGuard({ companies, plans });
  const plan = await plans.add(planFixture('Small', { users: 2, features: { ...planFixture('x').features, kanban: false } }));
  const company = await companies.add(companyFixture(plan.id, 'Acme'));
  const admin = await users.add(userFixture(company.id, 'boss@acme.test', { profile: 'admin' }));
  const actor = { userId: admin.id, companyId: company.id, profile: 'admin' as const };
  const deps = {
    users,
    companies,
    sessions: new InMemoryRefreshSessions(),
    planGuard,
    hasher: new InsecureTestPasswordHasher(),
    tx: new SerialTransaction(),
    clock,
    realtime,
    details: new UserDetailsReader({ links: new QueueUserLinks({ queues: new InMemoryQueues({ users }), connections: new InMemoryConnections() }), companies }),
  };
  return { users, companies, plans, company, admin, actor, planGuard, realtime, createUser: new CreateUser(deps), updateUser: new UpdateUser(deps) };
}

describe('Users and plan limits (in-memory)', () => {
  it('creates users up to the plan limit, then refuses with ERR_USER_CREATION_COUNT', async () => {
    const s = await setup();
    await s.createUser.execute({ actor: s.actor, name: 'Op One', email: 'one@acme.test', password: 'password-1' });
    const err = await s.createUser.execute({ actor: s.actor, name: 'Op Two', email: 'two@acme.test', password: 'password-2' }).catch((e) => e);
    expect(err).to.be.instanceOf(ForbiddenError);
    expect(err.code).to.equal('ERR_USER_CREATION_COUNT');
    expect(await s.users.countByCompany(s.company.id)).to.equal(2);
  });

  it('publishes a user event to the company on creation and update', async () => {
    const s = await setup();
    const u = await s.createUser.execute({ actor: s.actor, name: 'Op One', email: 'one@acme.test', password: 'password-1' });
    await s.updateUser.execute({ actor: s.actor, userId: u.id, name: 'Op Uno' });
    expect(s.realtime.events.map((e) => [e.companyId, e.entity, e.data.action])).to.deep.equal([
      [s.company.id, 'user', 'create'],
      [s.company.id, 'user', 'update'],
    ]);
  });

  it('reports disabled features and unknown companies', async () => {
    const s = await setup();
    expect(await s.planGuard.assertFeature(s.company.id, 'kanban').catch((e) => e.code)).to.equal('ERR_PLAN_FEATURE_DISABLED');
    await s.planGuard.assertFeature(s.company.id, 'campaigns');
    expect(await s.planGuard.assertFeature(999, 'campaigns').catch((e) => e)).to.be.instanceOf(NotFoundError);
    expect(await s.planGuard.assertRoomFor(s.company.id, 'queues', 3).catch((e) => e.code)).to.equal('ERR_QUEUE_CREATION_COUNT');
  });

  it('a user cannot raise their own profile, an admin cannot grant super', async () => {
    const s = await setup();
    const self = await s.updateUser.execute({ actor: s.actor, userId: s.admin.id, profile: 'super' }).catch((e) => e.code);
    expect(self).to.equal('ERR_CANNOT_CHANGE_OWN_PROFILE');
    const u = await s.createUser.execute({ actor: s.actor, name: 'Op One', email: 'one@acme.test', password: 'password-1' });
    expect(await s.updateUser.execute({ actor: s.actor, userId: u.id, profile: 'super' }).catch((e) => e.code)).to.equal('ERR_NO_PERMISSION');
  });
});
