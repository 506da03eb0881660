import { GetCompanySettings, UpdateCompanySetting } from '../settings/company-settings.js';
import { GlobalSettings, UploadPrivateSettingFile, UploadWhitelabelImage } from '../settings/global-settings.js';
import type { Settings } from '../settings/ports.js';
import type { AnnouncementAudience } from '../announcements/ports.js';
import { PlatformFrames } from '../tenancy/platform-events.js';
import type { SharedPorts } from './shared-ports.js';

export interface SettingsPorts {
  readonly settings: Settings;
  /** The companies of super users, who are told when a platform setting changes (announcements' port). */
  readonly announcementAudience: AnnouncementAudience;
}

/** Company and platform settings, whitelabel images and private files (`app.settings`). */
export function createSettings(p: SettingsPorts & SharedPorts) {
  const { settings, blobs, realtime, clock, ids } = p;
  const platform = new PlatformFrames({ supers: p.announcementAudience, realtime });
  const announce = (key: string) => platform.publish({ action: 'setting', key });
  return {
    companySettings: new GetCompanySettings({ settings }),
    updateCompanySetting: new UpdateCompanySetting({ settings, clock, realtime }),
    globalSettings: new GlobalSettings({ settings, blobs, clock, announce }),
    uploadWhitelabelImage: platform.announcing(new UploadWhitelabelImage({ settings, blobs, ids, clock }), (_, view) => ({ action: 'setting', key: view.key })),
    uploadPrivateSettingFile: platform.announcing(new UploadPrivateSettingFile({ settings, blobs, ids, clock }), (_, stored) => ({
      action: 'setting',
      key: stored.key,
    })),
  };
}

export type SettingsApi = ReturnType<typeof createSettings>;
