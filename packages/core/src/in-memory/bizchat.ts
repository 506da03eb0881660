import type { BizchatTemplate, NewBizchatTemplate } from '../bizchat/bizchat-template.js';
import type { BizchatNumbers, BizchatTemplates, ProviderTemplate, TemplateDirectory } from '../bizchat/ports.js';
import type { ServiceWindows } from '../bizchat/service-window.js';
import { ServiceUnavailableError, ValidationError } from '../shared/errors.js';
import type { InMemoryConnections, InMemoryMessages } from './messaging.js';

/** Code-point order, as the SQL adapter sorts (a locale puts `_` before digits and `a` before `B`). */
const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const byNameLanguage = (a: BizchatTemplate, b: BizchatTemplate) => byCodePoint(a.name, b.name) || byCodePoint(a.language, b.language) || a.id - b.id;

/** The stored template lists, by name then language as the SQL adapter orders them. */
export class InMemoryBizchatTemplates implements BizchatTemplates {
  private rows: BizchatTemplate[] = [];
  private nextId = 1;

  async list(companyId: number, connectionId: number) {
    return this.rows
      .filter((t) => t.companyId === companyId && t.connectionId === connectionId)
      .sort(byNameLanguage)
      .map((t) => structuredClone(t));
  }
  async find(companyId: number, connectionId: number, name: string, language: string) {
    const t = this.rows.find((r) => r.companyId === companyId && r.connectionId === connectionId && r.name === name && r.language === language);
    return t ? structuredClone(t) : null;
  }
  async replaceAll(companyId: number, connectionId: number, templates: readonly NewBizchatTemplate[]) {
    this.rows = this.rows.filter((t) => !(t.companyId === companyId && t.connectionId === connectionId));
    for (const t of templates) this.rows.push({ ...structuredClone(t), id: this.nextId++ });
    return this.list(companyId, connectionId);
  }
  async setStatus(wabaId: string, match: { metaId: string | null; name: string; language: string }, status: string, at: Date) {
    let changed = 0;
    for (const t of this.rows) {
      const same = match.metaId ? t.metaId === match.metaId : t.name === match.name && t.language === match.language;
      if (t.wabaId === wabaId && same) {
        t.status = status;
        t.syncedAt = at;
        changed++;
      }
    }
    return changed;
  }
}

/** A provider directory a test fills: business account id → its templates; `down` makes it unreachable. */
export class InMemoryTemplateDirectory implements TemplateDirectory {
  readonly accounts = new Map<string, { accessToken: string; templates: ProviderTemplate[] }>();
  down = false;

  async list(account: { wabaId: string; accessToken: string }) {
    if (this.down) throw new ServiceUnavailableError('ERR_BIZCHAT_PROVIDER_UNAVAILABLE');
    const found = this.accounts.get(account.wabaId);
    if (!found || found.accessToken !== account.accessToken) throw new ValidationError('ERR_BIZCHAT_TOKEN_INVALID');
    return structuredClone(found.templates);
  }
}

/** Bizchat numbers and windows read from the in-memory connections and messages. */
export class InMemoryBizchatNumbers implements BizchatNumbers, ServiceWindows {
  constructor(
    private readonly connections: InMemoryConnections,
    private readonly messages: InMemoryMessages,
  ) {}

  async connectionOfPhoneNumber(phoneNumberId: string) {
    return this.connections.table.filter((c) => c.kind === 'bizchat' && c.externalId === phoneNumberId).sort((a, b) => a.id - b.id)[0] ?? null;
  }
  async lastInboundAt(companyId: number, connectionId: number, contactId: number) {
    let last: Date | null = null;
    for (const m of this.messages.rows.values()) {
      if (m.companyId === companyId && m.connectionId === connectionId && m.contactId === contactId && !m.fromMe && (!last || m.createdAt > last))
        last = m.createdAt;
    }
    return last;
  }
}
