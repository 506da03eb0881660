import type { Clock, Transaction } from '../shared/ports.js';
import type { Broker } from './broker.js';
import type { Outbox } from './ports.js';

/** How far back the first run on a volatile broker looks for entries the previous process lost. */
const REQUEUE_WINDOW_MS = 24 * 3600_000;

/**
 * Moves committed outbox entries to the broker, oldest first. An entry is marked published only
 * after the broker accepted it; if the broker is down the entries wait and go out on a later
 * run. A crash between publish and mark republishes with the same id, which the broker drops.
 *
 * On a volatile broker (the in-process one, `publishTracked`), acceptance is not enough: a crash
 * loses what it holds. There an entry is also marked handled once a consumer has handled it (and
 * what its handler published, such as a send's `sent` event); the first run of a process puts
 * every published but unhandled entry back to pending, so it is relayed again. A send relayed
 * twice goes out once: the connector deduplicates by our message id.
 */
export class RelayOutbox {
  private running: Promise<number> | null = null;
  private again = false;
  /** Volatile broker: entries handled since the last run, to record. */
  private handled: string[] = [];
  private recovered = false;

  constructor(
    private readonly deps: {
      outbox: Outbox;
      broker: Broker;
      clock: Clock;
      batchSize?: number;
      /** Where `request` runs: in a unit of work of its own. Without it, directly. */
      tx?: Transaction;
      /** Runs only when `execute` is called (demos and tests that relay by hand): `request` does nothing. */
      byHand?: boolean;
    },
  ) {}

  /**
   * Starts a run (or joins the one under way) in a unit of work of its own, and returns at once:
   * what a commit that wrote entries, or a consumer that handled one, calls. A run that fails is
   * the `outbox.relay` job's to repeat; that job reports its failures.
   */
  readonly request = (): void => {
    if (this.deps.byHand) return;
    const run = () => this.execute();
    void (this.deps.tx ? this.deps.tx.runApart(run) : run()).catch(() => undefined);
  };

  /** Relays until the outbox is empty; concurrent calls share one run. Returns entries published. */
  async execute(): Promise<number> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async drain(): Promise<number> {
    const { outbox, broker, clock } = this.deps;
    const tracked = broker.publishTracked?.bind(broker);
    if (tracked && !this.recovered) {
      await outbox.requeueUnhandled(new Date(clock.now().getTime() - REQUEUE_WINDOW_MS));
      this.recovered = true;
    }
    let total = 0;
    do {
      this.again = false;
      await this.recordHandled();
      const size = this.deps.batchSize ?? 100;
      for (let full = true; full; ) {
        const batch = await outbox.pending(size);
        // A short batch was everything: no read to find the outbox empty (a poke meanwhile sets `again`).
        full = batch.length === size;
        if (batch.length === 0) break;
        const done: string[] = [];
        try {
          for (const entry of batch) {
            const envelope = { id: entry.id, subject: entry.subject, payload: entry.payload };
            if (tracked) {
              const { handled } = await tracked(envelope);
              void handled.then(() => this.onHandled(entry.id));
            } else {
              await broker.publish(envelope);
            }
            done.push(entry.id);
          }
        } finally {
          if (done.length) await outbox.markPublished(done, clock.now(), { handled: !tracked });
          total += done.length;
        }
      }
    } while (this.again);
    return total;
  }

  private onHandled(id: string) {
    this.handled.push(id);
    if (this.handled.length === 1) this.request();
  }

  private async recordHandled() {
    if (!this.handled.length) return;
    const ids = this.handled;
    this.handled = [];
    try {
      await this.deps.outbox.markHandled(ids, this.deps.clock.now());
    } catch (err) {
      this.handled.unshift(...ids);
      throw err;
    }
  }
}
