import { type SettingDefinition, settingsOfScope } from '@servicedesk/core/settings/catalog';

/**
 * The company settings as the screen shows them. The keys, their defaults and allowed values are
 * the backend's own catalog (`@servicedesk/core/settings/catalog`), so a key added there appears
 * here; the subject each key is shown under is the console's, and a key no subject names falls
 * under "Other" (a unit test keeps every catalog key in a subject).
 */
export const SUBJECTS = ['conversations', 'messages', 'hours', 'privacy', 'other'] as const;
export type Subject = (typeof SUBJECTS)[number];

const SUBJECT_OF: Readonly<Record<string, Exclude<Subject, 'other'>>> = {
  userRating: 'conversations',
  userRandom: 'conversations',
  DirectTicketsToWallets: 'conversations',
  closeTicketOnTransfer: 'conversations',
  requiredTag: 'conversations',
  hoursCloseTicketsAuto: 'conversations',
  showNotificationPending: 'conversations',
  CheckMsgIsGroup: 'conversations',
  acceptAudioMessageContact: 'conversations',
  call: 'conversations',
  AcceptCallWhatsappMessage: 'conversations',
  chatBotType: 'messages',
  sendSignMessage: 'messages',
  sendGreetingAccepted: 'messages',
  greetingAcceptedMessage: 'messages',
  sendMsgTransfTicket: 'messages',
  transferMessage: 'messages',
  sendGreetingMessageOneQueues: 'messages',
  sendFarewellWaitingTicket: 'messages',
  sendQueuePosition: 'messages',
  sendQueuePositionMessage: 'messages',
  scheduleType: 'hours',
  timezone: 'hours',
  outOfHoursMessage: 'hours',
  enableLGPD: 'privacy',
  lgpdConsent: 'privacy',
  lgpdMessage: 'privacy',
  lgpdLink: 'privacy',
  lgpdDeleteMessage: 'privacy',
  lgpdHideNumber: 'privacy',
};

/**
 * The keys this project acts on: the backend reads `scheduleType`, `timezone`, `outOfHoursMessage`
 * (business hours) and `DirectTicketsToWallets` (routing to the contact's seller); the console
 * reads `userRating` (the rating asked at a close) and `sendSignMessage` (the reply box's
 * signature). The others are kept for the clients of the lineage that read them, and the screen
 * says so rather than promising an effect.
 */
export const ACTED_ON: ReadonlySet<string> = new Set([
  'scheduleType',
  'timezone',
  'outOfHoursMessage',
  'DirectTicketsToWallets',
  'userRating',
  'sendSignMessage',
  // Platform-wide: the sign-up page opens only with `userCreation`; the pages before sign-in show `appName`.
  'userCreation',
  'appName',
]);

export function subjectOf(key: string): Subject {
  return SUBJECT_OF[key] ?? 'other';
}

/** How a setting is edited, from its rule: a switch for on/off and yes/no, a list, a number, a text or a time zone. */
export type Control =
  | { kind: 'switch'; on: string; off: string }
  | { kind: 'select'; values: readonly string[] }
  | { kind: 'number'; min: number; max: number }
  | { kind: 'text'; max: number; long: boolean }
  | { kind: 'timezone' }
  | { kind: 'color' };

export function controlOf(def: SettingDefinition): Control | null {
  const r = def.rule;
  switch (r.kind) {
    case 'boolean':
      return { kind: 'switch', on: 'true', off: 'false' };
    case 'enum':
      return r.values.length === 2 && r.values.includes('enabled') && r.values.includes('disabled')
        ? { kind: 'switch', on: 'enabled', off: 'disabled' }
        : { kind: 'select', values: r.values };
    case 'integer':
      return { kind: 'number', min: r.min, max: r.max };
    case 'text':
      return { kind: 'text', max: r.max, long: r.max > 500 };
    case 'timezone':
      return { kind: 'timezone' };
    case 'color':
      return { kind: 'color' };
    default:
      // Files are platform settings (the white label's images), uploaded in their own section.
      return null;
  }
}

/** The company's settings grouped by subject, in the catalog's order within each. */
export function companySettingsBySubject(): Array<{ subject: Subject; settings: SettingDefinition[] }> {
  const all = settingsOfScope('company');
  return SUBJECTS.map((subject) => ({ subject, settings: all.filter((d) => subjectOf(d.key) === subject) })).filter((g) => g.settings.length > 0);
}

/**
 * The platform-wide settings a super user edits by value (`GET`/`PUT /setting/:settingKey`), in the
 * catalog's order: every global key but the files, which are uploaded (the white label's images,
 * the payment certificate).
 */
export function platformSettings(): SettingDefinition[] {
  return settingsOfScope('global').filter((d) => d.rule.kind !== 'file');
}
