import { jwtVerify, SignJWT } from 'jose';
import { UnauthorizedError, type AccessClaims, type Profile, type RefreshClaims, type Tokens } from '@servicedesk/core';

export interface JoseTokensOptions {
  readonly secret: string;
  readonly accessLifetimeSeconds?: number;
  readonly refreshLifetimeSeconds?: number;
  readonly issuer?: string;
}

const ALG = 'HS256';

/**
 * HS256 JWTs signed with jose. The algorithm is pinned on verification, and each token names
 * its use (`typ`) so that a refresh token is never accepted as an access token or the reverse.
 */
export class JoseTokens implements Tokens {
  readonly refreshLifetimeSeconds: number;
  private readonly accessLifetimeSeconds: number;
  private readonly key: Uint8Array;
  private readonly issuer: string;

  constructor(options: JoseTokensOptions) {
    if (options.secret.length < 32) throw new Error('JWT secret must be at least 32 characters');
    this.key = new TextEncoder().encode(options.secret);
    this.accessLifetimeSeconds = options.accessLifetimeSeconds ?? 15 * 60;
    this.refreshLifetimeSeconds = options.refreshLifetimeSeconds ?? 7 * 24 * 3600;
    this.issuer = options.issuer ?? 'servicedesk';
  }

  issueAccess(c: AccessClaims, issuedAt?: Date): Promise<string> {
    return this.sign({ typ: 'access', companyId: c.companyId, profile: c.profile, tv: c.tokenVersion }, c.userId, this.accessLifetimeSeconds, issuedAt);
  }

  issueRefresh(c: RefreshClaims, issuedAt?: Date): Promise<string> {
    return this.sign({ typ: 'refresh', sid: c.sessionId, tv: c.tokenVersion }, c.userId, this.refreshLifetimeSeconds, issuedAt, c.jti);
  }

  async verifyAccess(token: string): Promise<AccessClaims> {
    const p = await this.verify(token, 'access');
    if (typeof p.companyId !== 'number' || typeof p.profile !== 'string') throw new UnauthorizedError('ERR_INVALID_TOKEN');
    return { userId: Number(p.sub), companyId: p.companyId, profile: p.profile as Profile, tokenVersion: Number(p.tv) };
  }

  async verifyRefresh(token: string): Promise<RefreshClaims> {
    const p = await this.verify(token, 'refresh');
    if (typeof p.sid !== 'string' || typeof p.jti !== 'string') throw new UnauthorizedError('ERR_INVALID_TOKEN');
    return { userId: Number(p.sub), sessionId: p.sid, jti: p.jti, tokenVersion: Number(p.tv) };
  }

  /** HS256 is deterministic: the same claims issued at the same second sign to the same token. */
  private sign(claims: Record<string, unknown>, subject: number, lifetime: number, issuedAt = new Date(), jti?: string): Promise<string> {
    const iat = Math.floor(issuedAt.getTime() / 1000);
    const jwt = new SignJWT(claims)
      .setProtectedHeader({ alg: ALG })
      .setSubject(String(subject))
      .setIssuer(this.issuer)
      .setIssuedAt(iat)
      .setExpirationTime(iat + lifetime);
    return (jti ? jwt.setJti(jti) : jwt).sign(this.key);
  }

  private async verify(token: string, typ: string): Promise<Record<string, unknown>> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: [ALG], issuer: this.issuer });
      if (payload.typ !== typ || !/^\d+$/.test(String(payload.sub)) || typeof payload.tv !== 'number') throw new Error('wrong token use');
      return payload as Record<string, unknown>;
    } catch {
      throw new UnauthorizedError(typ === 'access' ? 'ERR_SESSION_EXPIRED' : 'ERR_INVALID_TOKEN');
    }
  }
}
