import { connect, type NatsConnection, type Subscription } from 'nats';
import { ConflictError, isErrorCode, type ChannelContact, type ChannelProfile, type ChannelQueries, type Connection } from '@servicedesk/core';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
type Query = 'checknumber' | 'contacts' | 'profile';
const subject = (prefix: string, query: Query, chatappId: number) => `${prefix}.${query}.${chatappId}`;

/** What a session can answer: a number check always; its address book and a number's profile when its connector has them. */
export interface QueryableSession {
  checkNumber(number: string): Promise<{ exists: boolean; id: string | null }>;
  contacts?(): Promise<ChannelContact[]>;
  profile?(number: string): Promise<ChannelProfile>;
}

/**
 * Questions to a session across processes: a NATS request to the subject of the query and the
 * connection, which only the channel runtime holding that session listens on. No responder means
 * no live session.
 */
export class NatsChannelQueries implements ChannelQueries {
  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix = 'sd.q',
    private readonly timeoutMs = 5000,
  ) {}

  static async connect(url: string, prefix?: string) {
    const nc = await connect({ servers: url, name: 'servicedesk-queries', maxReconnectAttempts: -1 });
    return { queries: new NatsChannelQueries(nc, prefix), close: () => nc.drain() };
  }

  async checkNumber(connection: Connection, number: string) {
    const answer = await this.ask<{ exists?: boolean; id?: string | null }>('checknumber', connection, { number });
    return { exists: Boolean(answer.exists), id: answer.id ?? null };
  }

  async contacts(connection: Connection) {
    const answer = await this.ask<{ contacts?: ChannelContact[] }>('contacts', connection, {});
    return (answer.contacts ?? []).map((c) => ({ number: String(c.number), name: String(c.name ?? '') }));
  }

  async profile(connection: Connection, number: string) {
    const answer = await this.ask<{ name?: string | null; profilePicUrl?: string | null }>('profile', connection, { number });
    return { name: answer.name ?? null, profilePicUrl: answer.profilePicUrl ?? null };
  }

  private async ask<T>(query: Query, connection: Connection, payload: object): Promise<T> {
    let raw: Uint8Array;
    try {
      raw = (await this.nc.request(subject(this.prefix, query, connection.id), encoder.encode(JSON.stringify(payload)), { timeout: this.timeoutMs })).data;
    } catch {
      throw new ConflictError('ERR_SESSION_NOT_CONNECTED');
    }
    const answer = JSON.parse(decoder.decode(raw)) as T & { error?: unknown };
    // The responder's refusal comes from another process: only a catalog code passes through.
    if (answer.error) throw new ConflictError(isErrorCode(answer.error) ? answer.error : 'ERR_SESSION_NOT_CONNECTED');
    return answer;
  }
}

/** The runtime's side: answers the questions about the sessions it holds, one subject per query and session. */
export class NatsQueryResponder {
  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix = 'sd.q',
  ) {}

  static async connect(url: string, prefix?: string) {
    const nc = await connect({ servers: url, name: 'servicedesk-runtime-queries', maxReconnectAttempts: -1 });
    return { responder: new NatsQueryResponder(nc, prefix), close: () => nc.drain() };
  }

  /** Starts answering for one session; the returned function stops it. */
  attach(chatappId: number, checkNumber: QueryableSession['checkNumber'], more: Omit<QueryableSession, 'checkNumber'> = {}): () => void {
    const subs = [
      this.answer('checknumber', chatappId, ({ number }) => checkNumber(String(number))),
      this.answer('contacts', chatappId, async () => {
        if (!more.contacts) return { error: 'ERR_CONTACTS_NOT_SUPPORTED' };
        return { contacts: await more.contacts() };
      }),
      this.answer('profile', chatappId, async ({ number }) => (more.profile ? more.profile(String(number)) : { name: null, profilePicUrl: null })),
    ];
    return () => {
      for (const s of subs) s.unsubscribe();
    };
  }

  private answer(query: Query, chatappId: number, handle: (payload: Record<string, unknown>) => Promise<unknown>): Subscription {
    return this.nc.subscribe(subject(this.prefix, query, chatappId), {
      callback: (err, msg) => {
        if (err) return;
        void (async () => {
          let reply: unknown;
          try {
            reply = await handle(JSON.parse(decoder.decode(msg.data)) as Record<string, unknown>);
          } catch {
            reply = { error: 'ERR_SESSION_NOT_CONNECTED' };
          }
          msg.respond(encoder.encode(JSON.stringify(reply)));
        })();
      },
    });
  }
}
