import { campaignInvalid } from './campaign-errors.js';

/**
 * A company's campaign settings, stored as the lineage's key/value rows (`GET|POST
 * /campaign-settings`). The lineage's keys keep their meaning except `messageInterval`, which is
 * now the minimum of a random delay whose maximum is `messageIntervalMax`; the caps, back-off,
 * confirmation words and time-out are ours (the caps' names are those of the most hardened fork).
 */
export interface CampaignSettings {
  /** Seconds: the random gap between two sends of one connection lies between these two. */
  readonly messageInterval: number;
  readonly messageIntervalMax: number;
  /** After this many sends in a row (0: never), one longer pause of `greaterInterval` seconds. */
  readonly longerIntervalAfter: number;
  readonly greaterInterval: number;
  /** Company-wide placeholders (`{key}` → value). */
  readonly variables: ReadonlyArray<{ readonly key: string; readonly value: string }>;
  /** The sending window, `HH:mm` on the company's wall clock (end exclusive, `24:00` allowed). */
  readonly startHour: string;
  readonly endHour: string;
  /** Whether Saturdays and Sundays are sending days (weekdays always are). */
  readonly sabado: boolean;
  readonly domingo: boolean;
  /** Sends per connection, across all campaigns, in any rolling hour and any rolling 24 hours (0: no cap). */
  readonly capHourly: number;
  readonly capDaily: number;
  /** After this many provider errors in a row, the connection rests `backoffPauseMinutes`. */
  readonly backoffErrorThreshold: number;
  readonly backoffPauseMinutes: number;
  /** Replies that confirm, and replies that stop (the number goes to the suppression list), compared normalised. */
  readonly confirmationYesWords: readonly string[];
  readonly stopWords: readonly string[];
  /** How long a confirmation question waits for its yes. */
  readonly confirmationTimeoutHours: number;
}

export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSettings = {
  messageInterval: 20,
  messageIntervalMax: 40,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
  startHour: '08:00',
  endHour: '20:00',
  sabado: false,
  domingo: false,
  capHourly: 30,
  capDaily: 150,
  backoffErrorThreshold: 3,
  backoffPauseMinutes: 15,
  confirmationYesWords: ['sim', 's', 'yes', 'y', 'ok', 'quero', 'aceito', 'confirmo'],
  stopWords: ['sair', 'stop', 'parar', 'pare', 'cancelar', 'remover', 'descadastrar', 'nao quero'],
  confirmationTimeoutHours: 24,
};

/** One stored row, as the lineage keeps them (arrays and objects JSON-encoded). */
export interface CampaignSettingRow {
  readonly key: string;
  readonly value: string;
}

/** The longest confirmation or stop word accepted. */
export const MAX_WORD_LENGTH = 100;

type Kind = 'int' | 'hour' | 'bool' | 'words' | 'variables';
const KINDS: Record<keyof CampaignSettings, { kind: Kind; max?: number }> = {
  messageInterval: { kind: 'int', max: 86_400 },
  messageIntervalMax: { kind: 'int', max: 86_400 },
  longerIntervalAfter: { kind: 'int', max: 100_000 },
  greaterInterval: { kind: 'int', max: 86_400 },
  variables: { kind: 'variables' },
  startHour: { kind: 'hour' },
  endHour: { kind: 'hour' },
  sabado: { kind: 'bool' },
  domingo: { kind: 'bool' },
  capHourly: { kind: 'int', max: 100_000 },
  capDaily: { kind: 'int', max: 1_000_000 },
  backoffErrorThreshold: { kind: 'int', max: 1000 },
  backoffPauseMinutes: { kind: 'int', max: 10_080 },
  confirmationYesWords: { kind: 'words' },
  stopWords: { kind: 'words' },
  confirmationTimeoutHours: { kind: 'int', max: 720 },
};

export const CAMPAIGN_SETTING_KEYS = Object.keys(KINDS) as Array<keyof CampaignSettings>;

const HOUR = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** The value of one setting as given (a string from a row, or a JSON value), or undefined when it does not fit. */
function parseValue(kind: Kind, raw: unknown, max = Number.MAX_SAFE_INTEGER): unknown {
  let value = raw;
  if (typeof value === 'string' && (kind === 'words' || kind === 'variables')) {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  switch (kind) {
    case 'int': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      return typeof n === 'number' && Number.isInteger(n) && n >= 0 && n <= max ? n : undefined;
    }
    case 'hour':
      return typeof value === 'string' && HOUR.test(value) ? value : undefined;
    case 'bool':
      return value === true || value === 'true' ? true : value === false || value === 'false' ? false : undefined;
    case 'words':
      return Array.isArray(value) && value.length <= 100 && value.every((w) => typeof w === 'string' && w.length <= MAX_WORD_LENGTH)
        ? value.map(String)
        : undefined;
    case 'variables':
      return Array.isArray(value) &&
        value.length <= 200 &&
        value.every((v) => v && typeof v.key === 'string' && typeof v.value === 'string' && /^[^{}\s]{1,64}$/.test(v.key))
        ? value.map((v: { key: string; value: string }) => ({ key: v.key, value: v.value }))
        : undefined;
  }
}

/**
 * The settings from the stored rows: unknown keys are ignored, and a value that does not fit
 * (written by an older version) falls back to its default rather than stopping campaigns.
 */
export function settingsFromRows(rows: readonly CampaignSettingRow[]): CampaignSettings {
  const out: Record<string, unknown> = { ...DEFAULT_CAMPAIGN_SETTINGS };
  for (const row of rows) {
    const spec = KINDS[row.key as keyof CampaignSettings];
    if (!spec) continue;
    const value = parseValue(spec.kind, row.value, spec.max);
    if (value !== undefined) out[row.key] = value;
  }
  return withConsistentDelays(out as unknown as CampaignSettings);
}

function withConsistentDelays(s: CampaignSettings): CampaignSettings {
  return s.messageIntervalMax < s.messageInterval ? { ...s, messageIntervalMax: s.messageInterval } : s;
}

/**
 * What `POST /campaign-settings` stores: every given key checked (422 `ERR_INVALID_CAMPAIGN_SETTING`
 * with the key), unknown keys refused, arrays JSON-encoded as the lineage does.
 */
export function cleanSettingsInput(input: Record<string, unknown>): CampaignSettingRow[] {
  const rows: CampaignSettingRow[] = [];
  for (const [key, raw] of Object.entries(input)) {
    const spec = KINDS[key as keyof CampaignSettings];
    const value = spec ? parseValue(spec.kind, raw, spec.max) : undefined;
    if (value === undefined) throw campaignInvalid('ERR_INVALID_CAMPAIGN_SETTING', { key });
    rows.push({ key, value: typeof value === 'string' ? value : JSON.stringify(value) });
  }
  const min = input.messageInterval,
    max = input.messageIntervalMax;
  if (typeof min === 'number' && typeof max === 'number' && max < min) throw campaignInvalid('ERR_INVALID_CAMPAIGN_SETTING', { key: 'messageIntervalMax' });
  return rows;
}
