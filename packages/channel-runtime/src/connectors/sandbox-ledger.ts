import type { MikroORM } from '@mikro-orm/core';

export interface SandboxDelivery {
  readonly chatappId: number;
  readonly key: string;
  readonly to: string;
  readonly body: string;
}

/**
 * The sandbox provider's memory of what it delivered, by send key: like a provider that
 * deduplicates by message id, a repeated send with the same key delivers nothing new and
 * answers the first provider id. Kept in the database, it survives a runtime restart.
 */
export interface SandboxLedger {
  /** Records the delivery unless its key is known; answers the provider id and whether it was new. */
  deliverOnce(delivery: SandboxDelivery, providerMessageId: string): Promise<{ providerMessageId: string; first: boolean }>;
}

/**
 * The ledger in process memory (tests and embedded demos). It remembers the latest `maxKeys` send
 * keys (default 10,000), forgetting the oldest first, so that it stays bounded: a send repeated
 * after that many newer ones would be delivered again, far beyond any broker redelivery.
 */
export class InMemorySandboxLedger implements SandboxLedger {
  private readonly seen = new Map<string, string>();
  private readonly maxKeys: number;

  constructor(options: { maxKeys?: number } = {}) {
    this.maxKeys = Math.max(1, options.maxKeys ?? 10_000);
  }

  async deliverOnce(d: SandboxDelivery, providerMessageId: string) {
    const key = `${d.chatappId}:${d.key}`;
    const known = this.seen.get(key);
    if (known) return { providerMessageId: known, first: false };
    this.seen.set(key, providerMessageId);
    // A Map iterates in insertion order: its first key is the oldest.
    if (this.seen.size > this.maxKeys) this.seen.delete(this.seen.keys().next().value!);
    return { providerMessageId, first: true };
  }
}

export class DatabaseSandboxLedger implements SandboxLedger {
  constructor(private readonly db: { orm: MikroORM }) {}

  async deliverOnce(d: SandboxDelivery, providerMessageId: string) {
    const conn = this.db.orm.em.getConnection();
    const inserted = await conn.execute<Array<{ provider_message_id: string }>>(
      `insert into channel.sandbox_sent (chatapp_id, idempotency_key, provider_message_id, recipient, body)
       values (?, ?, ?, ?, ?) on conflict (chatapp_id, idempotency_key) do nothing returning provider_message_id`,
      [d.chatappId, d.key, providerMessageId, d.to, d.body],
    );
    if (inserted.length) return { providerMessageId, first: true };
    const [row] = await conn.execute<Array<{ provider_message_id: string }>>(
      'select provider_message_id from channel.sandbox_sent where chatapp_id = ? and idempotency_key = ?',
      [d.chatappId, d.key],
    );
    return { providerMessageId: row!.provider_message_id, first: false };
  }
}
