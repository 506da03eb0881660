import type { RealtimeEvent } from '../events/realtime-event.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { BlobStorage, Clock, IdGenerator } from '../shared/ports.js';
import { GetCompanySettings, UpdateCompanySetting } from '../settings/company-settings.js';
import { GlobalSettings, UploadPrivateSettingFile, UploadWhitelabelImage } from '../settings/global-settings.js';
import type { Settings } from '../settings/ports.js';

export interface SettingsPorts {
  readonly settings: Settings;
  readonly blobs: BlobStorage;
  readonly realtime: RealtimeEvents<RealtimeEvent>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** Company and platform settings, whitelabel images and private files (`app.settings`). */
export function createSettings(p: SettingsPorts) {
  const { settings, blobs, realtime, clock, ids } = p;
  return {
    companySettings: new GetCompanySettings({ settings }),
    updateCompanySetting: new UpdateCompanySetting({ settings, clock, realtime }),
    globalSettings: new GlobalSettings({ settings, blobs, clock }),
    uploadWhitelabelImage: new UploadWhitelabelImage({ settings, blobs, ids, clock }),
    uploadPrivateSettingFile: new UploadPrivateSettingFile({ settings, blobs, ids, clock }),
  };
}

export type SettingsApi = ReturnType<typeof createSettings>;
