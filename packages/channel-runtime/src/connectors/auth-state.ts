import type { AuthenticationState } from 'baileys';

/** A connection's Baileys session as the connector needs it: load it, save creds, forget it. */
export interface ConnectionAuthState {
  readonly connectionId: number;
  /** The stored session, or fresh credentials (a new QR pairing) when there is none. */
  load(): Promise<{ state: AuthenticationState; saveCreds: () => Promise<void> }>;
  /** Forgets the whole session (on logout): the next start pairs anew. */
  clear(): Promise<void>;
}
