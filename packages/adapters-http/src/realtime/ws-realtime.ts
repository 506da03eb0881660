import {
  audienceOf,
  EPHEMERAL_ENTITIES,
  eventName,
  type Cache,
  type RealtimeAudience,
  type RealtimeEvent,
  type RealtimeEvents,
  type RealtimeFanout,
  type Tickets,
} from '@servicedesk/core';

export interface ReplayWindow {
  /** How many frames per company are kept for `?since=` replay. */
  readonly maxEntries: number;
  readonly ttlSeconds: number;
}

export const DEFAULT_REPLAY_WINDOW: ReplayWindow = { maxEntries: 1000, ttlSeconds: 3600 };
/** The per-company sequence outlives any replay window by far; when it lapses clients get a resync. */
const SEQ_TTL_SECONDS = 30 * 24 * 3600;

export const seqKey = (companyId: number) => `rt:seq:${companyId}`;
export const windowKey = (companyId: number) => `rt:win:${companyId}`;

/**
 * What the replay window keeps and the fan-out carries: the client's frame, a newline, and the
 * frame's audience as JSON (JSON text never holds a raw newline, so the split is unambiguous).
 * Sockets receive the frame alone, and only when their user is in the audience.
 */
export function envelope(frame: string, audience: RealtimeAudience): string {
  return `${frame}\n${JSON.stringify(audience)}`;
}

/** Splits an envelope. A bare frame (no audience: written by an older instance) is for those who see every ticket. */
export function openEnvelope(value: string): { frame: string; audience: RealtimeAudience } {
  const cut = value.indexOf('\n');
  if (cut < 0) return { frame: value, audience: { kind: 'seesAll' } };
  try {
    return { frame: value.slice(0, cut), audience: JSON.parse(value.slice(cut + 1)) as RealtimeAudience };
  } catch {
    return { frame: value.slice(0, cut), audience: { kind: 'seesAll' } };
  }
}

/**
 * Presents the core's events: numbers each with the company's next `seq` (from the shared cache,
 * so every instance draws from one counter), works out who may receive it (`audienceOf`: the
 * HTTP read rule of what it carries), keeps frame and audience in the replay window and hands
 * them to the fan-out; each instance then filters per socket.
 */
export class WsRealtimeEvents implements RealtimeEvents<RealtimeEvent> {
  constructor(private readonly deps: { cache: Cache; fanout: RealtimeFanout; tickets: Pick<Tickets, 'findById'>; window?: ReplayWindow }) {}

  async publish(companyId: number, event: RealtimeEvent): Promise<void> {
    const { cache, fanout } = this.deps;
    const window = this.deps.window ?? DEFAULT_REPLAY_WINDOW;
    // A lookup that fails narrows the frame to those who see every ticket rather than widening it.
    const audience = await audienceOf(this.deps, companyId, event).catch((): RealtimeAudience => ({ kind: 'seesAll' }));
    if (EPHEMERAL_ENTITIES.has(event.entity)) {
      // No seq and no replay: only the sockets connected now get it (as the ticketViewer frames).
      await fanout.publish(companyId, envelope(JSON.stringify({ event: eventName(companyId, event.entity), data: event.data }), audience));
      return;
    }
    const seq = await cache.increment(seqKey(companyId), SEQ_TTL_SECONDS);
    const name = eventName(companyId, event.entity, 'key' in event ? event.key : undefined);
    const value = envelope(JSON.stringify({ seq, event: name, data: event.data }), audience);
    await cache.windowAppend(windowKey(companyId), seq, value, window.maxEntries, window.ttlSeconds);
    await fanout.publish(companyId, value);
  }
}
