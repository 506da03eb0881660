import { connect, type NatsConnection } from 'nats';
import type { RealtimeFanout } from '@servicedesk/core';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Realtime fan-out between backend instances over NATS core subjects (`<prefix>.<companyId>`).
 * Frames are already numbered and kept for replay by the shared cache, so at-most-once delivery
 * here is enough: a client that misses one reconnects with `since` and gets it back.
 */
export class NatsRealtimeFanout implements RealtimeFanout {
  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix = 'sd.realtime',
  ) {}

  static async connect(url: string, prefix?: string): Promise<{ fanout: NatsRealtimeFanout; close(): Promise<void> }> {
    const nc = await connect({ servers: url, name: 'servicedesk-realtime', maxReconnectAttempts: -1 });
    return { fanout: new NatsRealtimeFanout(nc, prefix), close: () => nc.drain() };
  }

  async publish(companyId: number, frame: string): Promise<void> {
    this.nc.publish(`${this.prefix}.${companyId}`, encoder.encode(frame));
  }

  async subscribe(listener: (companyId: number, frame: string) => void): Promise<() => Promise<void>> {
    const sub = this.nc.subscribe(`${this.prefix}.*`, {
      callback: (err, msg) => {
        if (err) return;
        const companyId = Number(msg.subject.slice(this.prefix.length + 1));
        if (Number.isInteger(companyId)) listener(companyId, decoder.decode(msg.data));
      },
    });
    await this.nc.flush();
    return async () => {
      sub.unsubscribe();
    };
  }
}
