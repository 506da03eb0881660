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
