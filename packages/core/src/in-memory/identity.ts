import type { PasswordReset, PasswordResets } from '../identity/password-resets.js';
import type { RefreshSession, RefreshSessions, UserQuery, Users } from '../identity/ports.js';
import type { MailMessage, Mailer } from '../shared/mailer.js';
import { withUserDefaults, type NewUser, type User } from '../identity/user.js';
import { foldForSearch } from '../shared/text.js';
import { compareFolded, InMemoryTable, slice } from './table.js';

export class InMemoryUsers implements Users {
  readonly table = new InMemoryTable<User>();

  async findById(companyId: number | null, id: number) {
    const user = this.table.get(id);
    return user && (companyId === null || user.companyId === companyId) ? user : null;
  }
  async findByEmail(email: string) {
    return this.table.find((u) => u.email === email);
  }
  async list(q: UserQuery) {
    const term = q.search ? foldForSearch(q.search) : '';
    const rows = this.table
      .filter((u) => (q.companyId === null || u.companyId === q.companyId) && (!term || foldForSearch(`${u.name} ${u.email}`).includes(term)))
      .sort((a, b) => compareFolded(a.name, b.name) || a.id - b.id);
    return slice(rows, q.page);
  }
  async listAll(companyId: number) {
    return this.table.filter((u) => u.companyId === companyId).sort((a, b) => compareFolded(a.name, b.name) || a.id - b.id);
  }
  async countByCompany(companyId: number) {
    return this.table.filter((u) => u.companyId === companyId).length;
  }
  async lastLoginByCompany(companyIds: readonly number[]) {
    const last = new Map<number, Date>();
    for (const u of this.table.filter((row) => companyIds.includes(row.companyId) && row.lastLoginAt !== null)) {
      const seen = last.get(u.companyId);
      if (!seen || u.lastLoginAt! > seen) last.set(u.companyId, u.lastLoginAt!);
    }
    return last;
  }
  async add(user: NewUser) {
    return this.table.insert(withUserDefaults(user));
  }
  async update(user: User) {
    this.table.replace(user);
  }
  async remove(companyId: number, id: number) {
    if (await this.findById(companyId, id)) this.table.delete(id);
  }
  async bumpTokenVersionsOfCompany(companyId: number) {
    for (const u of this.table.filter((row) => row.companyId === companyId)) this.table.replace({ ...u, tokenVersion: u.tokenVersion + 1 });
  }
  /** Wired to the queues adapter by `createInMemoryPorts`; alone, a user belongs to no queue. */
  queueMemberships: (companyId: number, userId: number) => number[] = () => [];
  async queueIdsOf(companyId: number, userId: number) {
    return [...this.queueMemberships(companyId, userId)].sort((a, b) => a - b);
  }
}

export class InMemoryRefreshSessions implements RefreshSessions {
  private readonly sessions = new Map<string, RefreshSession>();

  async create(s: RefreshSession) {
    this.sessions.set(s.id, { ...s });
  }
  async find(id: string) {
    const s = this.sessions.get(id);
    return s ? { ...s } : null;
  }
  async rotate(id: string, fromJti: string, toJti: string, expiresAt: Date, at: Date) {
    const s = this.sessions.get(id);
    if (!s || s.revokedAt || s.currentJti !== fromJti) return false;
    Object.assign(s, { currentJti: toJti, previousJti: fromJti, rotatedAt: at, expiresAt });
    return true;
  }
  async revoke(id: string, at: Date) {
    const s = this.sessions.get(id);
    if (s && !s.revokedAt) s.revokedAt = at;
  }
  async revokeAllOfUser(userId: number, at: Date) {
    for (const s of this.sessions.values()) if (s.userId === userId && !s.revokedAt) s.revokedAt = at;
  }
  async revokeAllOfCompany(companyId: number, at: Date) {
    for (const s of this.sessions.values()) if (s.companyId === companyId && !s.revokedAt) s.revokedAt = at;
  }
}

export function dropCompanyUsers(users: InMemoryUsers, companyId: number): void {
  for (const u of users.table.filter((row) => row.companyId === companyId)) users.table.delete(u.id);
}

/** Pending password resets in a map by user: one per user, a newer one replacing it. */
export class InMemoryPasswordResets implements PasswordResets {
  private readonly byUser = new Map<number, PasswordReset>();

  async replace(reset: PasswordReset) {
    this.byUser.set(reset.userId, { ...reset });
  }
  async take(tokenDigest: string) {
    for (const [userId, reset] of this.byUser) {
      if (reset.tokenDigest !== tokenDigest) continue;
      this.byUser.delete(userId);
      return { ...reset };
    }
    return null;
  }
  async removeExpired(now: Date) {
    let removed = 0;
    for (const [userId, reset] of this.byUser) {
      if (reset.expiresAt.getTime() >= now.getTime()) continue;
      this.byUser.delete(userId);
      removed += 1;
    }
    return removed;
  }
}

/** Keeps every message it is given, in order, for tests; `failWith` makes the next sends throw it. */
export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failWith: Error | null = null;

  async send(message: MailMessage) {
    if (this.failWith) throw this.failWith;
    this.sent.push(message);
  }
}
