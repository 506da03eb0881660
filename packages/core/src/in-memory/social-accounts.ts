import type { PageOfToken, SocialAccounts } from '../connections/ports.js';

/** The provider's answer about page access tokens, kept in memory: a test grants the tokens it uses. */
export class InMemorySocialAccounts implements SocialAccounts {
  private readonly pages = new Map<string, PageOfToken>();

  /** `token` becomes a page access token of `pageId` (linked to `instagramAccountId`, if given). */
  grant(token: string, pageId: string, instagramAccountId: string | null = null): void {
    this.pages.set(token, { pageId, instagramAccountId });
  }

  async pageOfToken(pageAccessToken: string): Promise<PageOfToken | null> {
    return this.pages.get(pageAccessToken) ?? null;
  }
}
