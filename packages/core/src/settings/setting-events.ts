import type { RealtimeEventOf } from '../realtime/ports.js';
import type { SettingView } from './company-settings.js';

/** `company-<id>-settings`: one company setting took a new value. */
export type SettingEvent = RealtimeEventOf<'settings', { readonly action: 'update'; readonly setting: SettingView }>;
