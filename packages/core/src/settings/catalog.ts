import type { ErrorCode } from '../shared/error-codes.js';
import { DEFAULT_TIME_ZONE, isTimeZone } from '../tenancy/business-hours.js';

/**
 * The allow-list of settings. A key not listed here cannot be read or written: this keeps
 * arbitrary rows out of the table and lets every value be validated before it is stored.
 */
export type SettingScope = 'company' | 'global';

export interface SettingDefinition {
  readonly key: string;
  readonly scope: SettingScope;
  /** Readable without a token on the login page (`GET /public-settings/:key`). */
  readonly public: boolean;
  readonly defaultValue: string;
  /** Allowed values, or a rule the value must satisfy. */
  readonly rule:
    | { kind: 'enum'; values: readonly string[] }
    | { kind: 'text'; max: number }
    | { kind: 'integer'; min: number; max: number }
    | { kind: 'color' }
    | { kind: 'file' }
    | { kind: 'timezone' }
    | { kind: 'boolean' };
}

const onOff = { kind: 'enum', values: ['enabled', 'disabled'] } as const;
/** Stored as `true`/`false`; the object reads (`/companySettings`, `/companySettingOne`) answer JSON booleans, as the lineage's client compares them. */
const yesNo = { kind: 'boolean' } as const;
const text = (max: number) => ({ kind: 'text', max }) as const;

function company(key: string, defaultValue: string, rule: SettingDefinition['rule']): SettingDefinition {
  return { key, scope: 'company', public: false, defaultValue, rule };
}
function global(key: string, defaultValue: string, rule: SettingDefinition['rule'], isPublic: boolean): SettingDefinition {
  return { key, scope: 'global', public: isPublic, defaultValue, rule };
}

export const SETTINGS: readonly SettingDefinition[] = [
  // Per-company behaviour, with the lineage's key names so existing frontends keep working.
  company('userRating', 'disabled', onOff),
  company('scheduleType', 'disabled', { kind: 'enum', values: ['disabled', 'company', 'queue'] }),
  company('call', 'enabled', onOff),
  company('chatBotType', 'text', { kind: 'enum', values: ['text', 'button', 'list'] }),
  company('CheckMsgIsGroup', 'enabled', onOff),
  company('sendGreetingAccepted', 'disabled', onOff),
  company('sendMsgTransfTicket', 'disabled', onOff),
  company('sendGreetingMessageOneQueues', 'enabled', onOff),
  company('sendSignMessage', 'enabled', onOff),
  company('sendFarewellWaitingTicket', 'disabled', onOff),
  company('sendQueuePosition', 'disabled', onOff),
  company('userRandom', 'disabled', onOff),
  company('acceptAudioMessageContact', 'enabled', onOff),
  company('enableLGPD', 'disabled', onOff),
  company('lgpdDeleteMessage', 'disabled', onOff),
  company('lgpdHideNumber', 'disabled', onOff),
  company('lgpdConsent', 'disabled', onOff),
  company('requiredTag', 'disabled', onOff),
  company('DirectTicketsToWallets', 'false', yesNo),
  company('closeTicketOnTransfer', 'false', yesNo),
  company('showNotificationPending', 'false', yesNo),
  company('hoursCloseTicketsAuto', '0', { kind: 'integer', min: 0, max: 8760 }),
  company('lgpdLink', '', text(500)),
  company('lgpdMessage', '', text(4000)),
  company('transferMessage', '', text(4000)),
  company('greetingAcceptedMessage', '', text(4000)),
  company('AcceptCallWhatsappMessage', '', text(4000)),
  company('sendQueuePositionMessage', '', text(4000)),
  // Business hours are read on this wall clock (an IANA name); the out-of-hours text is the fallback of connections without one.
  company('timezone', DEFAULT_TIME_ZONE, { kind: 'timezone' }),
  company('outOfHoursMessage', '', text(4000)),
  // Platform-wide white label and sign-up, edited by super users; the public ones feed the login page.
  global('userCreation', 'enabled', onOff, true),
  global('appName', 'Service Desk', text(60), true),
  global('primaryColorLight', '#2563eb', { kind: 'color' }, true),
  global('primaryColorDark', '#60a5fa', { kind: 'color' }, true),
  global('appLogoLight', '', { kind: 'file' }, true),
  global('appLogoDark', '', { kind: 'file' }, true),
  global('appLogoFavicon', '', { kind: 'file' }, true),
  global('loginBackground', '', { kind: 'file' }, true),
  global('paymentCertificate', '', { kind: 'file' }, false),
];

const BY_KEY = new Map(SETTINGS.map((d) => [d.key, d]));

export function settingDefinition(key: string, scope?: SettingScope): SettingDefinition | undefined {
  const def = BY_KEY.get(key);
  return def && (!scope || def.scope === scope) ? def : undefined;
}

export function settingsOfScope(scope: SettingScope): SettingDefinition[] {
  return SETTINGS.filter((d) => d.scope === scope);
}

/** Returns an error code when the value breaks the key's rule, else null. */
export function checkSettingValue(def: SettingDefinition, value: string): ErrorCode | null {
  const r = def.rule;
  switch (r.kind) {
    case 'enum':
      return r.values.includes(value) ? null : 'ERR_SETTING_VALUE_NOT_ALLOWED';
    case 'text':
      return value.length <= r.max ? null : 'ERR_SETTING_VALUE_TOO_LONG';
    case 'integer': {
      const n = Number(value);
      return /^\d+$/.test(value) && n >= r.min && n <= r.max ? null : 'ERR_SETTING_VALUE_NOT_ALLOWED';
    }
    case 'color':
      return /^#[0-9a-fA-F]{6}$/.test(value) ? null : 'ERR_SETTING_VALUE_NOT_ALLOWED';
    case 'file':
      // Set by upload; the only value written directly is `""`, which removes the file (the white-label page's delete button).
      return value === '' ? null : 'ERR_SETTING_SET_BY_UPLOAD';
    case 'boolean':
      return value === 'true' || value === 'false' ? null : 'ERR_SETTING_VALUE_NOT_ALLOWED';
    case 'timezone':
      return isTimeZone(value) ? null : 'ERR_SETTING_VALUE_NOT_ALLOWED';
  }
}

/**
 * A value as the object reads answer it: booleans for `boolean` keys, the string otherwise.
 */
export function wireSettingValue(key: string, value: string): string | boolean {
  return settingDefinition(key)?.rule.kind === 'boolean' ? value === 'true' : value;
}

/** The lineage's login page asks for `allowSignup`: the platform's `userCreation` (whether self-service sign-up is open). */
export const PUBLIC_SETTING_ALIASES: Readonly<Record<string, string>> = { allowSignup: 'userCreation' };
