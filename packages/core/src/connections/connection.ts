/** What kind of channel a connection is: a session connector, a social-network page, a business API. */
export type ConnectionKind = 'chatapp' | 'socialnet' | 'bizchat';
/** Which connector drives it. `sandbox` is the deterministic simulator for tests and demos. */
export type ConnectionProvider = 'sandbox' | 'baileys' | 'messenger' | 'instagram' | 'cloudapi';
export type ConnectionStatus = 'OPENING' | 'qrcode' | 'CONNECTED' | 'DISCONNECTED' | 'PENDING';

export const PROVIDERS_OF: Record<ConnectionKind, readonly ConnectionProvider[]> = {
  chatapp: ['sandbox', 'baileys'],
  socialnet: ['messenger', 'instagram', 'sandbox'],
  bizchat: ['cloudapi'],
};

export interface Connection {
  id: number;
  companyId: number;
  name: string;
  kind: ConnectionKind;
  provider: ConnectionProvider;
  status: ConnectionStatus;
  qrcode: string | null;
  /** While pairing by phone number (`status: 'qrcode'`): the code to type on the phone; null otherwise (absent: null). */
  pairingCode?: string | null;
  greetingMessage: string | null;
  farewellMessage: string | null;
  outOfHoursMessage: string | null;
  isDefault: boolean;
  /** Digest of the "Token API" of the official message API; the token itself is never stored. */
  tokenDigest: string | null;
  /** The token masked for display (first and last characters). */
  tokenHint: string | null;
  /** The page or account id at the provider (social networks), the phone-number id (bizchat). */
  externalId: string | null;
  /** Provider secrets (a page access token); never shown by the API. */
  secrets: Record<string, string>;
  /** A closed ticket of the same contact younger than this is reopened instead of a new one. */
  reopenWindowMinutes: number;
  greetingMediaKey: string | null;
  /** The AI assistant that answers its conversations while no operator has them; null: none. */
  promptId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewConnection = Omit<Connection, 'id'>;

/**
 * A connection on the wire, in the lineage client's names: `channel` (the kind, under the naming
 * rule), `complationMessage` (sent when a ticket closes), `qrcode` (`""` when there is none to
 * scan: the client closes its QR dialog on that), `greetingMediaAttachment` (the greeting file's
 * name), and `number` (the account's number once a connector reports it).
 */
export interface ConnectionView extends Omit<Connection, 'tokenDigest' | 'secrets' | 'createdAt' | 'updatedAt' | 'farewellMessage' | 'qrcode' | 'pairingCode'> {
  channel: ConnectionKind;
  qrcode: string;
  /** The code to type on the phone while pairing by phone number; null otherwise. */
  pairingCode: string | null;
  complationMessage: string | null;
  greetingMediaAttachment: string | null;
  number: string | null;
  /** Masked: the token can be replaced, never read back. */
  token: string | null;
  createdAt: string;
  updatedAt: string;
}

/** The file name a greeting-media key ends with (after the `<uuid>-` prefix). */
function attachmentName(key: string | null): string | null {
  if (!key) return null;
  const file = key.slice(key.lastIndexOf('/') + 1);
  return file.replace(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-/, '');
}

export function toConnectionView(c: Connection): ConnectionView {
  const { tokenDigest: _digest, secrets: _secrets, farewellMessage, qrcode, pairingCode, createdAt, updatedAt, ...rest } = c;
  return {
    ...rest,
    channel: c.kind,
    qrcode: qrcode ?? '',
    pairingCode: pairingCode ?? null,
    complationMessage: farewellMessage,
    greetingMediaAttachment: attachmentName(c.greetingMediaKey),
    number: null,
    token: c.tokenHint,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
  };
}

export function maskToken(token: string): string {
  return token.length <= 8 ? '••••' : `${token.slice(0, 4)}••••${token.slice(-4)}`;
}
