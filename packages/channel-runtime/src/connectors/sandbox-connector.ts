import { randomInt } from 'node:crypto';
import type { ConnectionStatus, ContactPresenceState, OutboundContent, SessionControl } from '@servicedesk/core';
import { sharedSummary } from '@servicedesk/core/connections/shared-content';
import { InMemorySandboxLedger, type SandboxLedger } from './sandbox-ledger.js';
import { PermanentSendError, type Connector, type ConnectorListener, type ConnectorSession, type InboundFromProvider } from '../ports.js';

/** How the simulator should misbehave on the next sends or acks: for tests and demos. */
export interface SandboxBehaviour {
  /** Refuse the next N sends with this reason (permanently). */
  failNext?: { count: number; reason: string };
  /** Throw a transient error on the next N sends (the broker redelivers). */
  flakyNext?: number;
  /** Report acks in reverse order (read, delivered) to exercise forward-only status. */
  reorderAcks?: boolean;
  /** Report every ack twice. */
  duplicateAcks?: boolean;
  /** Milliseconds before each ack is reported. */
  ackDelayMs?: number;
  /** Whether sent messages get acks at all. */
  acks?: boolean;
}

export interface SandboxConnectorOptions {
  /**
   * How many entries each session keeps in `sent`, `edited` and `revoked`: the latest ones, the
   * oldest dropped first, so that a sandbox that runs for long (a demo, the embedded default)
   * does not grow without end. Like a provider that lets recent messages only be changed, only
   * the sends still kept can be edited or revoked (older ones: ERR_UNKNOWN_MESSAGE).
   * Default {@link DEFAULT_SANDBOX_HISTORY_LIMIT}.
   */
  readonly historyLimit?: number;
  /**
   * Make every contact answer: each send is followed by an inbound message from its recipient,
   * "Re: <body>", with a provider id derived from the send key (`echo-<key>`), so a send
   * repeated after a crash echoes the same message again and the backend stores it once. It is
   * reported through the send's `reports`, before the runtime acknowledges the command. For
   * demos and multi-process tests, where nobody can inject messages into a runtime process.
   */
  readonly echo?: boolean;
}

export const DEFAULT_SANDBOX_HISTORY_LIMIT = 1_000;

/** Appends to a list that keeps its newest `limit` entries. */
function keepLatest<T>(list: T[], entry: T, limit: number): void {
  list.push(entry);
  if (list.length > limit) list.splice(0, list.length - limit);
}

/** The characters of a pairing code, as WhatsApp's (no 0, O, I or U: nothing to misread on a phone). */
const PAIRING_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTVWXYZ';

/** Eight characters to type on the phone, as WhatsApp's "Link with phone number" shows them. */
export function sandboxPairingCode(): string {
  return Array.from({ length: 8 }, () => PAIRING_ALPHABET[randomInt(PAIRING_ALPHABET.length)]).join('');
}

class SandboxSession implements ConnectorSession {
  private current: ConnectionStatus = 'CONNECTED';
  /** While pairing by phone number: the number and the code the "phone" must enter; null once paired. */
  pairing: { phoneNumber: string; code: string } | null = null;
  behaviour: SandboxBehaviour = {};
  /** The latest sends, oldest first (at most the connector's `historyLimit`). */
  readonly sent: Array<{ to: string; content: OutboundContent; providerMessageId: string }> = [];
  /** The latest edits, oldest first (at most the connector's `historyLimit`). */
  readonly edited: Array<{ to: string; providerMessageId: string; body: string }> = [];
  /** The latest revocations, oldest first (at most the connector's `historyLimit`). */
  readonly revoked: Array<{ to: string; providerMessageId: string }> = [];

  constructor(
    readonly chatappId: number,
    private readonly listener: ConnectorListener,
    private readonly ids: () => string,
    private readonly ledger: SandboxLedger,
    private readonly historyLimit: number,
    private readonly echo = false,
  ) {}

  status() {
    return this.current;
  }

  async send(to: string, content: OutboundContent, options: { idempotencyKey?: string } = {}) {
    const b = this.behaviour;
    if (b.failNext && b.failNext.count > 0) {
      b.failNext.count--;
      throw new PermanentSendError(b.failNext.reason);
    }
    if (b.flakyNext && b.flakyNext > 0) {
      b.flakyNext--;
      throw new Error('sandbox: transient failure');
    }
    const fresh = this.ids();
    const { providerMessageId, first } = options.idempotencyKey
      ? await this.ledger.deliverOnce({ chatappId: this.chatappId, key: options.idempotencyKey, to, body: content.body }, fresh)
      : { providerMessageId: fresh, first: true };
    if (first) keepLatest(this.sent, { to, content, providerMessageId }, this.historyLimit);
    // Receipts come at once unless a delay is asked for (then on a timer, which a crash may lose,
    // as a device that never came back would); the reply always at once, under an id derived from
    // the send key, so a repeated send answers the same message.
    const reports: Array<() => void | Promise<void>> = [];
    if (b.acks !== false) {
      const receipts = this.acks(providerMessageId);
      if (b.ackDelayMs) setTimeout(receipts, b.ackDelayMs);
      else reports.push(receipts);
    }
    const key = options.idempotencyKey;
    if (this.echo && key) {
      const reply = { providerMessageId: `echo-${key}`, from: to, senderName: to, isGroup: false, at: new Date(), body: `Re: ${content.body}` };
      reports.push(() => this.listener.inbound(reply));
    }
    if (!reports.length) return { providerMessageId };
    return {
      providerMessageId,
      reports: async () => {
        await Promise.all(reports.map((report) => report()));
      },
    };
  }

  /** Reports the send's receipts (in the order and number the behaviour asks for). */
  private acks(providerMessageId: string): () => void {
    const order = this.behaviour.reorderAcks ? (['read', 'delivered'] as const) : (['delivered', 'read'] as const);
    const times = this.behaviour.duplicateAcks ? 2 : 1;
    return () => {
      for (const status of order) for (let i = 0; i < times; i++) this.listener.delivery(providerMessageId, status);
    };
  }

  async edit(to: string, providerMessageId: string, body: string) {
    this.known(providerMessageId);
    keepLatest(this.edited, { to, providerMessageId, body }, this.historyLimit);
  }

  async revoke(to: string, providerMessageId: string) {
    this.known(providerMessageId);
    keepLatest(this.revoked, { to, providerMessageId }, this.historyLimit);
  }

  /** Like a provider, the simulator changes only messages it sent (and still keeps). */
  private known(providerMessageId: string) {
    if (!this.sent.some((s) => s.providerMessageId === providerMessageId)) throw new PermanentSendError('ERR_UNKNOWN_MESSAGE');
  }

  async checkNumber(number: string) {
    // The simulator knows every well-formed number; Brazilian mobiles are normalized to 13 digits.
    const digits = number.replace(/\D/g, '');
    if (!/^\d{10,15}$/.test(digits)) return { exists: false, id: null };
    const normalized = digits.startsWith('55') && digits.length === 12 ? `${digits.slice(0, 4)}9${digits.slice(4)}` : digits;
    return { exists: true, id: `${normalized}@sandbox` };
  }

  /** The simulated account's address book (tests may replace it). */
  addressBook: Array<{ number: string; name: string }> = sandboxAddressBook();

  async contacts() {
    return this.addressBook.map((c) => ({ ...c }));
  }

  /** Every well-formed number has a public name (its address-book name, else "Sandbox <last 4 digits>") and a picture. */
  async profile(number: string) {
    const digits = number.replace(/\D/g, '');
    if (!/^\d{10,15}$/.test(digits)) return { name: null, profilePicUrl: null };
    const known = this.addressBook.find((c) => c.number === digits);
    return { name: known?.name ?? `Sandbox ${digits.slice(-4)}`, profilePicUrl: `https://sandbox.invalid/avatars/${digits}.png` };
  }

  /** Waits for the code as a session pairing by phone number does (reported as the `qrcode` status with the code). */
  awaitPairing(phoneNumber: string) {
    this.pairing = { phoneNumber, code: sandboxPairingCode() };
    this.current = 'qrcode';
    this.listener.status('qrcode', null, this.pairing.code);
  }

  /**
   * The "phone" types the code: the right one connects the session; a wrong one is refused, as the
   * phone would refuse it (false), and the session keeps waiting.
   */
  enterPairingCode(code: string): boolean {
    if (!this.pairing || code.replace(/[\s-]/g, '').toUpperCase() !== this.pairing.code) return false;
    this.pairing = null;
    this.current = 'CONNECTED';
    this.listener.status('CONNECTED', null);
    return true;
  }

  /** The contact `from` typing, recording audio or stopped, as a provider reports it. */
  presence(from: string, state: ContactPresenceState): void {
    this.listener.presence(from, state);
  }

  /** Settles once the runtime has taken the message (see ConnectorListener.inbound). */
  inject(message: InboundFromProvider): Promise<void> {
    return this.listener.inbound(message);
  }

  async stop(options: { logout: boolean }) {
    this.current = 'DISCONNECTED';
    this.listener.status('DISCONNECTED', null);
    void options;
  }
}

/**
 * The deterministic simulator: a session connects at once (or, started with a phone number to
 * pair with, shows a pairing code until it is entered), a contact's typing can be reported
 * (`session(id).presence`), sends are acknowledged sent →
 * delivered → read, inbound messages can be injected, and it can be told to fail, flake,
 * reorder, duplicate or delay.
 */
export class SandboxConnector implements Connector {
  readonly providers = ['sandbox'] as const;
  private readonly sessions = new Map<number, SandboxSession>();
  private counter = 0;
  /** Distinguishes this process's provider ids from those of earlier runs (they are unique per connection). */
  private readonly epoch = Date.now().toString(36);
  private readonly historyLimit: number;
  private readonly echo: boolean;

  constructor(
    private readonly ledger: SandboxLedger = new InMemorySandboxLedger(),
    options: SandboxConnectorOptions = {},
  ) {
    this.historyLimit = Math.max(1, options.historyLimit ?? DEFAULT_SANDBOX_HISTORY_LIMIT);
    this.echo = options.echo ?? false;
  }

  async start(command: SessionControl, listener: ConnectorListener): Promise<ConnectorSession> {
    const session = new SandboxSession(
      command.chatappId,
      listener,
      () => `sandbox-${command.chatappId}-${this.epoch}-${++this.counter}`,
      this.ledger,
      this.historyLimit,
      this.echo,
    );
    this.sessions.set(command.chatappId, session);
    // A start naming a phone number pairs by code, until a test (the "phone") enters it; otherwise connected at once.
    const phone = command.pairingPhoneNumber;
    queueMicrotask(() => (phone ? session.awaitPairing(phone) : listener.status('CONNECTED', null)));
    return session;
  }

  /** The live simulated session of a connection, to inject messages or change its behaviour. */
  session(chatappId: number): SandboxSession {
    const s = this.sessions.get(chatappId);
    if (!s) throw new Error(`no sandbox session for connection ${chatappId}`);
    return s;
  }

  /**
   * A contact's message arriving on a connection, as the provider would deliver it (a text, or a
   * shared `location` or `contacts` cards, or a file as `media`); settles once the runtime has taken it.
   */
  inject(chatappId: number, message: Partial<InboundFromProvider> & { from: string }): Promise<void> {
    return this.session(chatappId).inject({
      providerMessageId: message.providerMessageId ?? `sandbox-in-${chatappId}-${++this.counter}`,
      senderName: message.senderName ?? message.from,
      isGroup: message.isGroup ?? false,
      at: message.at ?? new Date(),
      from: message.from,
      // A location or contact cards say what they are in words, as the connectors' do.
      body:
        message.body ??
        (message.location ? sharedSummary({ location: message.location }) : message.contacts ? sharedSummary({ contacts: message.contacts }) : ''),
      ...(message.location ? { location: message.location } : {}),
      ...(message.contacts ? { contacts: message.contacts } : {}),
      // A file: where the backend fetches it (a URL a test serves), its caption the body.
      ...(message.media ? { media: message.media } : {}),
    });
  }
}

/** The address book every sandbox session starts with: four people, one of them a Brazilian mobile written without its ninth digit. */
export function sandboxAddressBook(): Array<{ number: string; name: string }> {
  return [
    { number: '5511987650001', name: 'Ana Sandbox' },
    { number: '5511987650002', name: 'Bruno Sandbox' },
    { number: '551187650003', name: 'Carla Sandbox' },
    { number: '5521987650004', name: 'Davi Sandbox' },
  ];
}
