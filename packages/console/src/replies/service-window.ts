/** The business channel's customer-service window: free text only within 24 hours of the contact's last message. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

export type ServiceWindow =
  | { readonly kind: 'open'; readonly closesAt: number }
  | { readonly kind: 'closed'; readonly since: number }
  /** No message of the contact among those loaded (older ones, or another conversation's): the server decides at the send. */
  | { readonly kind: 'unknown' };

/**
 * The window of a bizchat conversation from its messages as loaded (the server exposes no field
 * for it): open until 24 hours after the contact's last message, as the server counts it.
 */
export function serviceWindow(
  messages: readonly { readonly fromMe: boolean; readonly isPrivate: boolean; readonly createdAt: string }[],
  now: number,
): ServiceWindow {
  let last: number | null = null;
  for (const m of messages) {
    if (m.fromMe || m.isPrivate) continue;
    const at = Date.parse(m.createdAt);
    if (!Number.isNaN(at) && (last === null || at > last)) last = at;
  }
  if (last === null) return { kind: 'unknown' };
  const closesAt = last + SERVICE_WINDOW_MS;
  return now <= closesAt ? { kind: 'open', closesAt } : { kind: 'closed', since: closesAt };
}
