import { connect, type NatsConnection, type Subscription } from 'nats';
import { ConflictError, type ChannelQueries, type Connection } from '@servicedesk/core';

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const subject = (prefix: string, chatappId: number) => `${prefix}.checknumber.${chatappId}`;

/**
 * Number checks across processes: a NATS request to the subject of the connection, which only
 * the channel runtime holding that session listens on. No responder means no live session.
 */
export class NatsChannelQueries implements ChannelQueries {
  constructor(private readonly nc: NatsConnection, private readonly prefix = 'sd.q', private readonly timeoutMs = 5000) {}

  static async connect(url: string, prefix?: string) {
    const nc = await connect({ servers: url, name: 'servicedesk-queries', maxReconnectAttempts: -1 });
    return { queries: new NatsChannelQueries(nc, prefix), close: () => nc.drain() };
  }

  async checkNumber(connection: Connection, number: string) {
    let raw: Uint8Array;
    try {
      raw = (await this.nc.request(subject(this.prefix, connection.id), encoder.encode(JSON.stringify({ number })), { timeout: this.timeoutMs })).data;
    } catch {
      throw new ConflictError('ERR_SESSION_NOT_CONNECTED');
    }
    const answer = JSON.parse(decoder.decode(raw)) as { exists?: boolean; id?: string | null; error?: string };
    if (answer.error) throw new ConflictError(answer.error);
    return { exists: Boolean(answer.exists), id: answer.id ?? null };
  }
}

/** The runtime's side: answers the number checks of the sessions it holds, one subject each. */
export class NatsQueryResponder {
  constructor(private readonly nc: NatsConnection, private readonly prefix = 'sd.q') {}

  static async connect(url: string, prefix?: string) {
    const nc = await connect({ servers: url, name: 'servicedesk-runtime-queries', maxReconnectAttempts: -1 });
    return { responder: new NatsQueryResponder(nc, prefix), close: () => nc.drain() };
  }

  /** Starts answering for one session; the returned function stops it. */
  attach(chatappId: number, checkNumber: (number: string) => Promise<{ exists: boolean; id: string | null }>): () => void {
    const sub: Subscription = this.nc.subscribe(subject(this.prefix, chatappId), {
      callback: (err, msg) => {
        if (err) return;
        void (async () => {
          let reply: unknown;
          try {
            const { number } = JSON.parse(decoder.decode(msg.data)) as { number: string };
            reply = await checkNumber(number);
          } catch {
            reply = { error: 'ERR_SESSION_NOT_CONNECTED' };
          }
          msg.respond(encoder.encode(JSON.stringify(reply)));
        })();
      },
    });
    return () => sub.unsubscribe();
  }
}
