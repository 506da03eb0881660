import type { RealtimeEvents } from '../realtime/ports.js';
import { toObjstoreConfigView } from './objstore-config.js';
import type { ObjstoreConfigEvent } from './objstore-events.js';
import type { ObjstoreChanges, ObjstoreConfigs } from './ports.js';

/** Tells the store choosing where uploads go, then the admins (`objstoreConfig` frames), of committed changes. */
export class ObjstoreAnnouncer {
  constructor(
    private readonly deps: {
      readonly configs: Pick<ObjstoreConfigs, 'findById'>;
      readonly changes: ObjstoreChanges;
      readonly realtime: RealtimeEvents<ObjstoreConfigEvent>;
    },
  ) {}

  /** Configs created or updated: each as it is now stored. */
  async changed(companyId: number, changed: readonly { id: number; action: 'create' | 'update' }[]): Promise<void> {
    this.deps.changes.changed(companyId);
    for (const { id, action } of changed) {
      const config = await this.deps.configs.findById(companyId, id);
      if (config) await this.publish(companyId, { action, config: toObjstoreConfigView(config) });
    }
  }

  /** A config removed. */
  async removed(companyId: number, configId: number): Promise<void> {
    this.deps.changes.changed(companyId);
    await this.publish(companyId, { action: 'delete', configId });
  }

  private async publish(companyId: number, data: ObjstoreConfigEvent['data']): Promise<void> {
    await this.deps.realtime.publish(companyId, { entity: 'objstoreConfig', data });
  }
}
