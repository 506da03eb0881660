import { expect } from 'chai';
import { SignJWT } from 'jose';
import { JoseTokens } from '../src/index.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';

describe('JoseTokens', () => {
  const tokens = new JoseTokens({ secret: SECRET });
  const access = { userId: 5, companyId: 2, profile: 'admin' as const, tokenVersion: 3 };
  const refresh = { userId: 5, sessionId: 'sess-1', jti: 'jti-1', tokenVersion: 3 };

  it('round-trips access and refresh claims', async () => {
    expect(await tokens.verifyAccess(await tokens.issueAccess(access))).to.deep.equal(access);
    expect(await tokens.verifyRefresh(await tokens.issueRefresh(refresh))).to.deep.equal(refresh);
  });

  it('issues the same token again for the same claims and issue time (the refresh grace relies on it)', async () => {
    const at = new Date(Date.now() - 2_500);
    expect(await tokens.issueRefresh(refresh, at)).to.equal(await tokens.issueRefresh(refresh, new Date(at.getTime())));
    expect(await tokens.issueAccess(access, at)).to.equal(await tokens.issueAccess(access, at));
    expect(await tokens.verifyAccess(await tokens.issueAccess(access, at))).to.deep.equal(access);
  });

  it('never accepts one kind of token as the other', async () => {
    expect(await tokens.verifyAccess(await tokens.issueRefresh(refresh)).catch((e) => e.code)).to.equal('ERR_SESSION_EXPIRED');
    expect(await tokens.verifyRefresh(await tokens.issueAccess(access)).catch((e) => e.code)).to.equal('ERR_INVALID_TOKEN');
  });

  it('refuses another key, another algorithm, and expired tokens', async () => {
    const other = new JoseTokens({ secret: 'another-secret-that-is-long-enough-987654' });
    expect(await tokens.verifyAccess(await other.issueAccess(access)).catch((e) => e.code)).to.equal('ERR_SESSION_EXPIRED');
    const hs512 = await new SignJWT({ typ: 'access', companyId: 2, profile: 'admin', tv: 3 })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('5')
      .setIssuer('servicedesk')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verifyAccess(hs512).catch((e) => e.code)).to.equal('ERR_SESSION_EXPIRED');
    const expired = await new SignJWT({ typ: 'access', companyId: 2, profile: 'admin', tv: 3 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('5')
      .setIssuer('servicedesk')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verifyAccess(expired).catch((e) => e.code)).to.equal('ERR_SESSION_EXPIRED');
  });

  it('refuses a short secret at construction', () => {
    expect(() => new JoseTokens({ secret: 'short' })).to.throw(/32 characters/);
  });
});
