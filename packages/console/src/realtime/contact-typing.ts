import type { QueryClient } from '@tanstack/react-query';

/**
 * The contact's typing per conversation, from the namespace's ephemeral `contactTyping` frames
 * (docs/realtime.md, "The contact's typing"). An indicator ends on `paused`, on the contact's next
 * message, or, since a `paused` can be lost (the frames are never replayed), after
 * `CONTACT_TYPING_TIMEOUT_MS` without news (WhatsApp repeats `composing` while the contact types).
 */
export const CONTACT_TYPING_TIMEOUT_MS = 20_000;

/** What the contact is doing now: typing or recording audio. */
export type TypingState = 'composing' | 'recording';

/** The `data` of a `company-<id>-contactTyping` frame. */
export interface TypingFrameData {
  readonly ticketId: number;
  readonly state: TypingState | 'paused';
}

export function typingFrameData(data: Record<string, unknown>): TypingFrameData | null {
  const { ticketId, state } = data;
  if (typeof ticketId !== 'number' || (state !== 'composing' && state !== 'recording' && state !== 'paused')) return null;
  return { ticketId, state };
}

/** Runs `work` after `ms` and answers how to cancel it (tests pass their own clock). */
export type Schedule = (work: () => void, ms: number) => () => void;

const realSchedule: Schedule = (work, ms) => {
  const timer = setTimeout(work, ms);
  return () => clearTimeout(timer);
};

export class ContactTyping {
  private readonly byTicket = new Map<number, { state: TypingState; cancel: () => void }>();
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly schedule: Schedule = realSchedule,
    private readonly timeoutMs = CONTACT_TYPING_TIMEOUT_MS,
  ) {}

  /** What the contact of the ticket is doing, or null. */
  state(ticketId: number): TypingState | null {
    return this.byTicket.get(ticketId)?.state ?? null;
  }

  apply(frame: TypingFrameData): void {
    if (frame.state === 'paused') {
      this.clear(frame.ticketId);
      return;
    }
    this.byTicket.get(frame.ticketId)?.cancel();
    const cancel = this.schedule(() => this.clear(frame.ticketId), this.timeoutMs);
    const before = this.state(frame.ticketId);
    this.byTicket.set(frame.ticketId, { state: frame.state, cancel });
    if (before !== frame.state) this.changed();
  }

  /** The contact stopped (or their message arrived): nothing is shown for the ticket. */
  clear(ticketId: number): void {
    const known = this.byTicket.get(ticketId);
    if (!known) return;
    known.cancel();
    this.byTicket.delete(ticketId);
    this.changed();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed() {
    for (const listener of this.listeners) listener();
  }
}

const stores = new WeakMap<QueryClient, ContactTyping>();

/** The typing of the conversations shown with this query client (one per signed-in console). */
export function contactTypingOf(client: QueryClient): ContactTyping {
  let store = stores.get(client);
  if (!store) stores.set(client, (store = new ContactTyping()));
  return store;
}
