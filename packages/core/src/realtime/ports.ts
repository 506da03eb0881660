/**
 * The shape every realtime event has: `entity` names the frame (`company-<companyId>-<entity>`)
 * and `data` is its payload, told apart by `action`. The events themselves are declared next to
 * the views they carry (`tickets/ticket-events.ts`…) and gathered in `events/realtime-event.ts`.
 */
export interface RealtimeEventShape {
  readonly entity: string;
  readonly data: { readonly action: string };
  /**
   * One record of the entity the frame is about, when its name says so: the frame is then
   * `company-<companyId>-<entity>-<key>` (the lineage's per-chat and per-user chat events).
   */
  readonly key?: number;
}

/** The events of one entity: one payload per action (`Data` is a union discriminated by `action`). */
export interface RealtimeEventOf<Entity extends string, Data extends { readonly action: string }> {
  readonly entity: Entity;
  readonly data: Data;
}

/**
 * Pushes a change to the operators of one company. Adapters deliver it on the company's
 * namespace as `company-<companyId>-<entity>` with a per-company increasing `seq`. A publisher
 * names the events it sends (`RealtimeEvents<TicketEvent>`), so a wrong entity, action or payload
 * does not compile; adapters present every event (`RealtimeEvents<RealtimeEvent>`).
 */
export interface RealtimeEvents<E extends RealtimeEventShape> {
  publish(companyId: number, event: E): Promise<void>;
}

/**
 * Entities whose frame the lineage names without a company (`company-<entity>`), the same on
 * every company's namespace: the platform's announcements (`company-announcement`).
 */
const PLATFORM_ENTITIES: ReadonlySet<string> = new Set(['announcement']);

/**
 * Entities whose frames are ephemeral: sent to the sockets connected now without a `seq` and never
 * kept for replay (a reconnecting client must not be told, late, that a contact was typing).
 */
export const EPHEMERAL_ENTITIES: ReadonlySet<string> = new Set(['contactTyping']);

export function eventName(companyId: number, entity: string, key?: number): string {
  if (PLATFORM_ENTITIES.has(entity)) return `company-${entity}`;
  return key === undefined ? `company-${companyId}-${entity}` : `company-${companyId}-${entity}-${key}`;
}

/**
 * Carries serialized realtime frames to every backend instance (which then writes them to the
 * websockets allowed to read them). In-process for one instance; through the broker for several.
 * The text is opaque here: the transport that publishes and reads it (the websocket adapter) puts
 * the frame's audience next to it.
 */
export interface RealtimeFanout {
  publish(companyId: number, frame: string): Promise<void>;
  subscribe(listener: (companyId: number, frame: string) => void): Promise<() => Promise<void>>;
}
