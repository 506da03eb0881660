import { expect } from 'chai';
import { InMemoryCache, LoginThrottle, TooManyRequestsError, UnauthorizedError, ForbiddenError } from '../../src/index.js';
import {
  FixedClock,
  InMemoryConnections,
  InMemoryQueues,
  SerialTransaction,
  InMemoryCompanies,
  InMemoryRefreshSessions,
  InMemoryTokens,
  InMemoryUsers,
  InsecureTestPasswordHasher,
  SequentialIds,
} from '../../src/testing.js';
import { Login } from '../../src/identity/login.js';
import { CompanyStanding } from '../../src/identity/company-standing.js';
import { RefreshRotation } from '../../src/identity/refresh-rotation.js';
import { RefreshToken } from '../../src/identity/refresh-token.js';
import { SessionIssuer } from '../../src/identity/session-issuer.js';
import { Authenticate } from '../../src/identity/authenticate.js';
import { QueueUserLinks } from '../../src/compose/user-links.js';
import { UserDetailsReader } from '../../src/identity/user-details.js';
import { companyFixture, userFixture } from '../contracts/repositories-contract.js';

async function setup() {
  const clock = new FixedClock();
  const users = new InMemoryUsers();
  const companies = new InMemoryCompanies();
  const sessions = new InMemoryRefreshSessions();
  const tokens = new InMemoryTokens();
  const hasher = new InsecureTestPasswordHasher();
  const ids = new SequentialIds();
  const cache = new InMemoryCache(clock);
  const issuer = new SessionIssuer({ sessions, tokens, clock, ids });
  const company = await companies.add(companyFixture(1, 'Acme'));
  const details = new UserDetailsReader({
    links: new QueueUserLinks({ queues: new InMemoryQueues({ users }), connections: new InMemoryConnections() }),
    companies,
  });
  const user = await users.add(userFixture(company.id, 'ana@acme.test', { passwordHash: await hasher.hash('right-password') }));
  const login = new Login({
    users,
    companies,
    hasher,
    throttle: new LoginThrottle(cache, { maxFailuresPerEmail: 3, maxFailuresPerIp: 10, windowSeconds: 60 }),
    sessions: issuer,
    clock,
    details,
  });
  const refresh = new RefreshToken({
    users,
    standing: new CompanyStanding({ companies }),
    sessions,
    tokens,
    rotation: new RefreshRotation({ sessions, tokens, issuer, ids }),
    tx: new SerialTransaction(),
    clock,
    details,
  });
  const authenticate = new Authenticate({ users, companies, tokens });
  return { clock, users, companies, company, user, login, refresh, authenticate };
}

describe('Login, refresh and authenticate (in-memory)', () => {
  it('logs in case-insensitively by e-mail and issues a working access token', async () => {
    const s = await setup();
    const result = await s.login.execute({ email: ' ANA@acme.test ', password: 'right-password', ip: '1.1.1.1' });
    expect(result.user.email).to.equal('ana@acme.test');
    const auth = await s.authenticate.execute(result.token);
    expect(auth.actor).to.deep.equal({ userId: s.user.id, companyId: s.company.id, profile: 'user' });
  });

  it('locks an e-mail after the allowed failures until the window passes, then lets the right password in', async () => {
    const s = await setup();
    for (let i = 0; i < 3; i++) {
      await s.login.execute({ email: 'ana@acme.test', password: 'wrong', ip: '1.1.1.1' }).catch((e) => expect(e).to.be.instanceOf(UnauthorizedError));
    }
    const blocked = await s.login.execute({ email: 'ana@acme.test', password: 'right-password', ip: '1.1.1.1' }).catch((e) => e);
    expect(blocked).to.be.instanceOf(TooManyRequestsError);
    expect(blocked.retryAfterSeconds).to.equal(60);
    s.clock.advance(61_000);
    expect((await s.login.execute({ email: 'ana@acme.test', password: 'right-password', ip: '1.1.1.1' })).user.id).to.equal(s.user.id);
  });

  it('refuses users of an inactive company', async () => {
    const s = await setup();
    await s.companies.update({ ...s.company, status: false });
    const err = await s.login.execute({ email: 'ana@acme.test', password: 'right-password', ip: '1.1.1.1' }).catch((e) => e);
    expect(err).to.be.instanceOf(ForbiddenError);
  });

  it('rotates refresh tokens; replaying a rotated one revokes every token of the user', async () => {
    const s = await setup();
    const first = await s.login.execute({ email: 'ana@acme.test', password: 'right-password', ip: '1.1.1.1' });
    const second = await s.refresh.execute({ refreshToken: first.refreshToken });
    const third = await s.refresh.execute({ refreshToken: second.refreshToken });
    const replay = await s.refresh.execute({ refreshToken: first.refreshToken }).catch((e) => e);
    expect(replay).to.be.instanceOf(UnauthorizedError);
    expect(replay.code).to.equal('ERR_REFRESH_TOKEN_REUSED');
    expect(await s.refresh.execute({ refreshToken: third.refreshToken }).catch((e) => e.code)).to.equal('ERR_SESSION_EXPIRED');
    expect(await s.authenticate.execute(third.token).catch((e) => e.code)).to.equal('ERR_SESSION_EXPIRED');
  });

  it('an expired refresh session cannot be used', async () => {
    const s = await setup();
    const first = await s.login.execute({ email: 'ana@acme.test', password: 'right-password', ip: '1.1.1.1' });
    s.clock.advance(8 * 24 * 3600 * 1000);
    expect(await s.refresh.execute({ refreshToken: first.refreshToken }).catch((e) => e.code)).to.equal('ERR_SESSION_EXPIRED');
  });

  it("a deleted user's token stops working at once", async () => {
    const s = await setup();
    const first = await s.login.execute({ email: 'ana@acme.test', password: 'right-password', ip: '1.1.1.1' });
    await s.users.remove(s.company.id, s.user.id);
    expect(await s.authenticate.execute(first.token).catch((e) => e.code)).to.equal('ERR_SESSION_EXPIRED');
  });
});
