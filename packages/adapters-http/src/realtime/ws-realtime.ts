import { eventName, type Cache, type RealtimeEvent, type RealtimeEvents, type RealtimeFanout } from '@servicedesk/core';

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
 * Presents the core's events: numbers each with the company's next `seq` (from the shared cache,
 * so every instance draws from one counter), keeps it in the replay window and hands the frame
 * `{ seq, event: 'company-<id>-<entity>', data }` to the fan-out.
 */
export class WsRealtimeEvents implements RealtimeEvents<RealtimeEvent> {
  constructor(private readonly deps: { cache: Cache; fanout: RealtimeFanout; window?: ReplayWindow }) {}

  async publish(companyId: number, event: RealtimeEvent): Promise<void> {
    const { cache, fanout } = this.deps;
    const window = this.deps.window ?? DEFAULT_REPLAY_WINDOW;
    const seq = await cache.increment(seqKey(companyId), SEQ_TTL_SECONDS);
    const frame = JSON.stringify({ seq, event: eventName(companyId, event.entity), data: event.data });
    await cache.windowAppend(windowKey(companyId), seq, frame, window.maxEntries, window.ttlSeconds);
    await fanout.publish(companyId, frame);
  }
}
