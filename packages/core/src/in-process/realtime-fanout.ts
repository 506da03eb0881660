import type { RealtimeFanout } from '../realtime/ports.js';

/** Fan-out inside one process: the embedded default. */
export class InProcessRealtimeFanout implements RealtimeFanout {
  private readonly listeners = new Set<(companyId: number, frame: string) => void>();
  async publish(companyId: number, frame: string) {
    for (const l of this.listeners) l(companyId, frame);
  }
  async subscribe(listener: (companyId: number, frame: string) => void) {
    this.listeners.add(listener);
    return async () => {
      this.listeners.delete(listener);
    };
  }
}
