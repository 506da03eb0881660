/**
 * Pushes a change to the operators of one company. Adapters deliver it on the company's
 * namespace as `company-<companyId>-<entity>` with a per-company increasing `seq`.
 */
export interface RealtimeEvent {
  readonly entity: string;
  readonly data: { readonly action: string } & Record<string, unknown>;
}

export interface RealtimeEvents {
  publish(companyId: number, event: RealtimeEvent): Promise<void>;
}

export function eventName(companyId: number, entity: string): string {
  return `company-${companyId}-${entity}`;
}

/**
 * Carries serialized realtime frames to every backend instance (which then writes them to its
 * own websockets). In-process for one instance; through the broker for several.
 */
export interface RealtimeFanout {
  publish(companyId: number, frame: string): Promise<void>;
  subscribe(listener: (companyId: number, frame: string) => void): Promise<() => Promise<void>>;
}
