import type { RealtimeEventShape, RealtimeEvents } from '../realtime/ports.js';
import type { Cache, Clock, IdGenerator } from '../shared/ports.js';

/**
 * The entities whose changes the inbound routing reads (a company's settings, its queues, its
 * connections' queues, its flows): publishing one of them marks the company's routing changed.
 */
const ROUTING_ENTITIES: ReadonlySet<string> = new Set(['settings', 'queue', 'chatapp', 'flow']);
/** How long the shared mark of a company's routing lives in the cache (a missing one is drawn again). */
const MARK_TTL_SECONDS = 24 * 60 * 60;
/** A read is reused at most this long: the bound for a change that publishes no frame. */
const READ_TTL_MS = 60_000;
/** How long a company's mark, once checked, stands for reads that come without a check of their own. */
const CHECK_TTL_MS = 1_000;
const MAX_ENTRIES = 10_000;

/**
 * What every inbound message reads about its company's routing and what rarely changes — the
 * settings it consults, the queues of its connection, the published flows — kept per process,
 * so that the write path's transaction runs without those statements. Whether a kept read still
 * holds is one look at a mark in the shared cache (Redis when instances share one): every change
 * to what the routing reads publishes a frame, and publishing through `watching` draws a new mark
 * first, so the next message on any instance reads again. `check` is that look, once per message,
 * before its transaction; reads made without a recent check look themselves. An emptied cache
 * (the test backend's reset) has no mark: a new one is drawn and nothing kept is used.
 */
export class RoutingReads {
  private readonly reads = new Map<string, { readonly mark: string; readonly until: number; readonly value: unknown }>();
  private readonly marks = new Map<number, { readonly mark: string; readonly checkedAt: number }>();

  constructor(
    private readonly deps: { readonly cache: Cache; readonly clock: Clock; readonly ids: IdGenerator },
    private readonly readTtlMs = READ_TTL_MS,
  ) {}

  private now() {
    return this.deps.clock.now().getTime();
  }
  private static key(companyId: number) {
    return `routing-mark:${companyId}`;
  }

  /** Looks up the company's mark in the shared cache (drawing one when there is none) and remembers it. */
  async check(companyId: number): Promise<void> {
    const key = RoutingReads.key(companyId);
    let mark = await this.deps.cache.get(key);
    if (!mark) {
      const drawn = this.deps.ids.uuid();
      mark = (await this.deps.cache.setIfAbsent(key, drawn, MARK_TTL_SECONDS)) ? drawn : ((await this.deps.cache.get(key)) ?? drawn);
    }
    this.marks.set(companyId, { mark, checkedAt: this.now() });
  }

  /** The company's routing changed: every instance reads it again from its next message. */
  async changed(companyId: number): Promise<void> {
    this.marks.delete(companyId);
    await this.deps.cache.set(RoutingReads.key(companyId), this.deps.ids.uuid(), MARK_TTL_SECONDS);
  }

  /** `load`'s answer, reused while the company's mark stays the same (a copy each time: callers may change what they get). */
  async read<V>(companyId: number, name: string, load: () => Promise<V>): Promise<V> {
    let known = this.marks.get(companyId);
    if (!known || this.now() - known.checkedAt > CHECK_TTL_MS) {
      await this.check(companyId);
      known = this.marks.get(companyId)!;
    }
    const key = `${companyId}:${name}`;
    const kept = this.reads.get(key);
    if (kept && kept.mark === known.mark && kept.until > this.now()) return structuredClone(kept.value) as V;
    const value = await load();
    if (this.reads.size >= MAX_ENTRIES) this.reads.delete(this.reads.keys().next().value!);
    this.reads.set(key, { mark: known.mark, until: this.now() + this.readTtlMs, value: structuredClone(value) });
    return value;
  }

  /** The same events, each change to what the routing reads marked before it is published. */
  watching<E extends RealtimeEventShape>(realtime: RealtimeEvents<E>): RealtimeEvents<E> {
    return {
      publish: async (companyId, event) => {
        if (ROUTING_ENTITIES.has(event.entity)) await this.changed(companyId);
        await realtime.publish(companyId, event);
      },
    };
  }
}
