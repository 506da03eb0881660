import type { Clock } from '../shared/ports.js';
import type { Broker } from './broker.js';
import type { Outbox } from './ports.js';

/**
 * Moves committed outbox entries to the broker, oldest first. An entry is marked published only
 * after the broker accepted it; if the broker is down the entries wait and go out on a later
 * run. A crash between publish and mark republishes with the same id, which the broker drops.
 */
export class RelayOutbox {
  private running: Promise<number> | null = null;
  private again = false;

  constructor(private readonly deps: { outbox: Outbox; broker: Broker; clock: Clock; batchSize?: number }) {}

  /** Relays until the outbox is empty; concurrent calls share one run. Returns entries published. */
  async execute(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => { this.running = null; });
    return this.running;
  }

  private async drain(): Promise<number> {
    let total = 0;
    do {
      this.again = false;
      const size = this.deps.batchSize ?? 100;
      for (let full = true; full;) {
        const batch = await this.deps.outbox.pending(size);
        // A short batch was everything: no read to find the outbox empty (a poke meanwhile sets `again`).
        full = batch.length === size;
        if (batch.length === 0) break;
        const done: string[] = [];
        try {
          for (const entry of batch) {
            await this.deps.broker.publish({ id: entry.id, subject: entry.subject, payload: entry.payload });
            done.push(entry.id);
          }
        } finally {
          if (done.length) await this.deps.outbox.markPublished(done, this.deps.clock.now());
          total += done.length;
        }
      }
    } while (this.again);
    return total;
  }
}
