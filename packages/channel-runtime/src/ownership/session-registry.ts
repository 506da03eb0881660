import type { SessionControl } from '@servicedesk/core';

/** The latest control command of a connection: what every runtime instance agrees should run. */
export interface DesiredSession {
  readonly chatappId: number;
  readonly companyId: number;
  /** False after a logout: nobody should hold the session. */
  readonly running: boolean;
  /** Bumped by every command that changes what should run (a restart always does). */
  readonly generation: number;
  readonly command: SessionControl;
}

/**
 * Shared by every channel-runtime instance: which sessions should run, and which instance owns
 * each one. Ownership is a lease: held until it lapses, `ttlMs` after the owner last renewed it,
 * so a dead instance's sessions become free for the others to take. Expiry is judged by the
 * store's own clock (the database's, for the SQL adapter), never by the callers'.
 */
export interface SessionRegistry {
  /**
   * Records a control command. A resuming `start` identical to what is recorded changes nothing
   * (every restart of a process resumes all sessions); anything else bumps the generation.
   */
  record(cmd: SessionControl): Promise<{ desired: DesiredSession; changed: boolean }>;
  desired(chatappId: number): Promise<DesiredSession | null>;
  /** Takes the lease when it is free, lapsed or already the owner's; true when the owner holds it now. */
  acquire(chatappId: number, owner: string, ttlMs: number): Promise<boolean>;
  /** Extends every lease the owner holds; answers what it still holds, with what should run there. */
  renew(owner: string, ttlMs: number): Promise<DesiredSession[]>;
  release(chatappId: number, owner: string): Promise<void>;
  /** The instance holding the session now, if any. */
  owner(chatappId: number): Promise<string | null>;
  /** Sessions that should run and that nobody holds (never taken, or lapsed), oldest change first. */
  unowned(limit: number): Promise<DesiredSession[]>;
  /** How many instances hold at least one live lease (to share free sessions fairly). */
  liveOwners(): Promise<number>;
}

/** The fields of a command that decide how a session runs: a start repeating them changes nothing. */
export function sameSession(a: SessionControl, b: SessionControl): boolean {
  return (
    a.companyId === b.companyId &&
    a.provider === b.provider &&
    a.externalId === b.externalId &&
    JSON.stringify(sortedEntries(a.secrets)) === JSON.stringify(sortedEntries(b.secrets))
  );
}

const sortedEntries = (o: Record<string, string>) => Object.entries(o ?? {}).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));

/** What a command asks to run next, given what is recorded. */
export function nextDesired(current: DesiredSession | null, cmd: SessionControl): { desired: DesiredSession; changed: boolean } {
  const running = cmd.action !== 'logout';
  if (current && cmd.action === 'start' && cmd.resume && current.running && sameSession(current.command, cmd)) return { desired: current, changed: false };
  if (current && cmd.action === 'logout' && !current.running) return { desired: current, changed: false };
  return {
    desired: { chatappId: cmd.chatappId, companyId: cmd.companyId, running, generation: (current?.generation ?? 0) + 1, command: cmd },
    changed: true,
  };
}

/** One process (the embedded runtime, tests): the same rules on a clock of its own. */
export class InMemorySessionRegistry implements SessionRegistry {
  private readonly rows = new Map<number, DesiredSession & { changedAt: number }>();
  private readonly leases = new Map<number, { owner: string; expiresAt: number }>();
  private tick = 0;

  constructor(private readonly now: () => number = () => Date.now()) {}

  async record(cmd: SessionControl) {
    const current = this.rows.get(cmd.chatappId) ?? null;
    const next = nextDesired(current, cmd);
    if (next.changed) this.rows.set(cmd.chatappId, { ...structuredClone(next.desired), changedAt: ++this.tick });
    return { desired: structuredClone(strip(this.rows.get(cmd.chatappId)!)), changed: next.changed };
  }
  async desired(chatappId: number) {
    const row = this.rows.get(chatappId);
    return row ? structuredClone(strip(row)) : null;
  }
  async acquire(chatappId: number, owner: string, ttlMs: number) {
    const lease = this.leases.get(chatappId);
    if (lease && lease.owner !== owner && lease.expiresAt > this.now()) return false;
    this.leases.set(chatappId, { owner, expiresAt: this.now() + ttlMs });
    return true;
  }
  async renew(owner: string, ttlMs: number) {
    const held: DesiredSession[] = [];
    for (const [id, lease] of this.leases) {
      if (lease.owner !== owner || lease.expiresAt <= this.now()) continue;
      lease.expiresAt = this.now() + ttlMs;
      const row = this.rows.get(id);
      if (row) held.push(structuredClone(strip(row)));
    }
    return held;
  }
  async release(chatappId: number, owner: string) {
    if (this.leases.get(chatappId)?.owner === owner) this.leases.delete(chatappId);
  }
  async owner(chatappId: number) {
    const lease = this.leases.get(chatappId);
    return lease && lease.expiresAt > this.now() ? lease.owner : null;
  }
  async unowned(limit: number) {
    return [...this.rows.values()]
      .filter((r) => {
        const l = this.leases.get(r.chatappId);
        return r.running && (!l || l.expiresAt <= this.now());
      })
      .sort((a, b) => a.changedAt - b.changedAt)
      .slice(0, limit)
      .map((r) => structuredClone(strip(r)));
  }
  async liveOwners() {
    return new Set([...this.leases.values()].filter((l) => l.expiresAt > this.now()).map((l) => l.owner)).size;
  }
}

function strip(row: DesiredSession & { changedAt?: number }): DesiredSession {
  const { changedAt: _, ...rest } = row;
  return rest;
}
