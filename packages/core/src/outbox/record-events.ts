import { createHash } from 'node:crypto';
import type { Clock } from '../shared/ports.js';
import type { BrokerEnvelope } from './broker.js';
import type { Outbox } from './ports.js';

/**
 * The outbox id of an event whose broker id is derived from what it reports (`inbound:<connection>:<provider id>`):
 * a UUID made of that id's SHA-256, so the same event taken twice is one entry.
 */
export function outboxIdOf(eventId: string): string {
  const hex = createHash('sha256').update(eventId).digest('hex');
  // Version 8 (custom) and the RFC 9562 variant: a well-formed UUID whatever the hash.
  const variant = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/**
 * Events taken from a provider (a webhook's delivery, a message a connector received), written to
 * the outbox in one statement before anyone is told they were taken: the provider's answer (a
 * webhook's 200) or the connector's acknowledgement comes after the commit, so a crash afterwards
 * loses nothing. The outbox relays them to their subjects after the commit, like sends; their
 * handlers are idempotent (one message per provider id and connection), so an entry relayed again
 * after a crash changes nothing.
 */
export class RecordEvents {
  constructor(private readonly deps: { outbox: Outbox; clock: Clock }) {}

  async execute(events: readonly BrokerEnvelope[]): Promise<void> {
    if (!events.length) return;
    const createdAt = this.deps.clock.now();
    const entries = events.map((e) => ({ id: outboxIdOf(e.id), subject: e.subject, payload: e.payload, createdAt }));
    // One statement, atomic by itself: no transaction around it (on the embedded database that
    // would add a BEGIN and a COMMIT to every delivery). Inside one, it commits with it.
    await this.deps.outbox.addOnce(entries);
  }
}
