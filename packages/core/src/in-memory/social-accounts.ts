import type { BusinessNumberAnswer, BusinessNumberClaim, PageOfToken, SocialAccounts } from '../connections/ports.js';

/** The provider's answer about page access tokens and business numbers, kept in memory: a test grants the tokens it uses. */
export class InMemorySocialAccounts implements SocialAccounts {
  private readonly pages = new Map<string, PageOfToken>();
  /** Access token → the numbers it controls, as `wabaId/phoneNumberId`. */
  private readonly numbers = new Map<string, Set<string>>();

  /** `token` becomes a page access token of `pageId` (linked to `instagramAccountId`, if given). */
  grant(token: string, pageId: string, instagramAccountId: string | null = null): void {
    this.pages.set(token, { pageId, instagramAccountId });
  }

  /** `token` controls the business number `phoneNumberId` of the account `wabaId`. */
  grantNumber(token: string, wabaId: string, phoneNumberId: string): void {
    this.numbers.set(token, (this.numbers.get(token) ?? new Set()).add(`${wabaId}/${phoneNumberId}`));
  }

  async businessNumber(claim: BusinessNumberClaim): Promise<BusinessNumberAnswer> {
    const controlled = this.numbers.get(claim.accessToken);
    if (!controlled) return 'token-refused';
    return controlled.has(`${claim.wabaId}/${claim.phoneNumberId}`) ? 'owned' : 'not-owned';
  }

  async pageOfToken(pageAccessToken: string): Promise<PageOfToken | null> {
    return this.pages.get(pageAccessToken) ?? null;
  }
}
