import { canonicalPhone } from '../contacts/phone-numbers.js';
import type {
  AudienceContact,
  AudienceListItem,
  CampaignAudience,
  CampaignConnections,
  CampaignSend,
  CampaignSender,
  CampaignSendResult,
  CampaignSettingsStore,
  StoredCampaignSetting,
  CampaignReferenceKind,
  CampaignReferences,
} from './ports.js';
import type { CampaignSettingRow } from './campaign-settings.js';

/** Contact lists, tagged contacts and CRM contacts, filled by the test or demo. */
export class InMemoryCampaignAudience implements CampaignAudience {
  readonly lists = new Map<string, AudienceListItem[]>();
  readonly tagged = new Map<string, AudienceContact[]>();
  readonly contacts = new Map<number, AudienceContact[]>();

  async listItems(companyId: number, contactListId: number) {
    return [...(this.lists.get(`${companyId}:${contactListId}`) ?? [])];
  }
  async contactsWithTag(companyId: number, tagId: number) {
    return [...(this.tagged.get(`${companyId}:${tagId}`) ?? [])];
  }
  async contactsByNumbers(companyId: number, numbers: readonly string[]) {
    const wanted = new Set(numbers);
    return (this.contacts.get(companyId) ?? []).filter((c) => wanted.has(canonicalPhone(c.number)));
  }
}

/** Names of lists, tags, connections, users and queues per company, filled by the test or demo. */
export class InMemoryCampaignReferences implements CampaignReferences {
  readonly rows = new Map<string, string>();

  set(companyId: number, kind: CampaignReferenceKind, id: number, name: string): void {
    this.rows.set(`${companyId}:${kind}:${id}`, name);
  }

  async names(companyId: number, kind: CampaignReferenceKind, ids: readonly number[]) {
    const out = new Map<number, string>();
    for (const id of ids) {
      const name = this.rows.get(`${companyId}:${kind}:${id}`);
      if (name !== undefined) out.set(id, name);
    }
    return out;
  }
}

/** Settings rows and a time zone per company. */
export class InMemoryCampaignSettings implements CampaignSettingsStore {
  readonly rowsOf = new Map<number, CampaignSettingRow[]>();
  readonly zones = new Map<number, string>();

  private readonly stored = new Map<string, StoredCampaignSetting>();
  private nextId = 1;

  async rows(companyId: number) {
    return [...(this.rowsOf.get(companyId) ?? [])];
  }

  async save(companyId: number, rows: readonly CampaignSettingRow[]) {
    const now = new Date();
    for (const row of rows) {
      const key = `${companyId}:${row.key}`;
      const before = this.stored.get(key);
      this.stored.set(
        key,
        before
          ? { ...before, value: row.value, updatedAt: now }
          : { id: this.nextId++, companyId, key: row.key, value: row.value, createdAt: now, updatedAt: now },
      );
    }
    const mine = [...this.stored.values()].filter((r) => r.companyId === companyId).sort((a, b) => a.id - b.id);
    this.rowsOf.set(
      companyId,
      mine.map((r) => ({ key: r.key, value: r.value })),
    );
    return mine;
  }
  async timeZone(companyId: number) {
    return this.zones.get(companyId) ?? 'America/Sao_Paulo';
  }
}

/** Connections and whether each is connected. */
export class InMemoryCampaignConnections implements CampaignConnections {
  readonly rows = new Map<number, { id: number; companyId: number; kind: 'chatapp' | 'socialnet' | 'bizchat'; connected: boolean }>();

  async find(companyId: number, connectionId: number) {
    const c = this.rows.get(connectionId);
    return c && c.companyId === companyId ? { ...c } : null;
  }
}

/**
 * A sender that records what goes out, deduplicated by idempotency key as the send path is
 * (the second send with a key answers the first message). `failNext` makes sends fail.
 */
export class RecordingCampaignSender implements CampaignSender {
  readonly sent: Array<CampaignSend & { messageId: string; at: Date }> = [];
  private readonly byKey = new Map<string, string>();
  failNext: Array<{ reason: string; retryable: boolean }> = [];

  constructor(private readonly clock: { now(): Date }) {}

  async send(send: CampaignSend): Promise<CampaignSendResult> {
    const known = this.byKey.get(send.idempotencyKey);
    if (known) return { ok: true, messageId: known };
    const failure = this.failNext.shift();
    if (failure) return { ok: false, ...failure };
    const messageId = `msg-${this.sent.length + 1}`;
    this.byKey.set(send.idempotencyKey, messageId);
    this.sent.push({ ...send, messageId, at: this.clock.now() });
    return { ok: true, messageId };
  }
}
