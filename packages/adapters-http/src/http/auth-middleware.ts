import { timingSafeEqual, createHash } from 'node:crypto';
import { ForbiddenError, UnauthorizedError, type Authenticated, type IdentityApi, type TenancyApi } from '@servicedesk/core';
import type { Context } from 'koa';

/** The parts of the application the HTTP and websocket guards use: token checks and plan features. */
export interface AccessApi {
  readonly identity: Pick<IdentityApi, 'authenticate'>;
  readonly tenancy: Pick<TenancyApi, 'planGuard'>;
}

export function bearerToken(ctx: Context): string | undefined {
  const header = ctx.get('authorization');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** Verifies the platform JWT and enforces the first-access password change. */
export async function authenticateUser(app: AccessApi, ctx: Context, duringPasswordChange: boolean): Promise<Authenticated> {
  const result = await app.identity.authenticate.execute(bearerToken(ctx));
  if (result.mustChangePassword && !duringPasswordChange) throw new ForbiddenError('ERR_PASSWORD_CHANGE_REQUIRED');
  return result;
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b) && given.length === expected.length;
}

/** The company integration API's static token. No token configured means the API is closed. */
export function assertCompanyToken(ctx: Context, companyToken: string | undefined): void {
  const token = bearerToken(ctx);
  if (!token || !companyToken || !sameSecret(token, companyToken)) throw new UnauthorizedError('ERR_INVALID_COMPANY_TOKEN');
}
