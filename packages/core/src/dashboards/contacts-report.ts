import type { Users } from '../identity/ports.js';
import type { Settings } from '../settings/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock } from '../shared/ports.js';
import type { Tags } from '../tags/ports.js';
import { rangeFor } from './dashboard-scope.js';
import type { ContactReportFilter, ContactsReport, ReportContact } from './ports.js';

/** The area codes (DDD) of each Brazilian state, for the report's state filter (the lineage's `ddds`). */
export const STATE_AREA_CODES: Readonly<Record<string, readonly string[]>> = {
  AC: ['68'],
  AL: ['82'],
  AM: ['92', '97'],
  AP: ['96'],
  BA: ['71', '73', '74', '75', '77'],
  CE: ['85', '88'],
  DF: ['61'],
  ES: ['27', '28'],
  GO: ['62', '64'],
  MA: ['98', '99'],
  MG: ['31', '32', '33', '34', '35', '37', '38'],
  MS: ['67'],
  MT: ['65', '66'],
  PA: ['91', '93', '94'],
  PB: ['83'],
  PE: ['81', '87'],
  PI: ['86', '89'],
  PR: ['41', '42', '43', '44', '45', '46'],
  RJ: ['21', '22', '24'],
  RN: ['84'],
  RO: ['69'],
  RR: ['95'],
  RS: ['51', '53', '54', '55'],
  SC: ['47', '48', '49'],
  SE: ['79'],
  SP: ['11', '12', '13', '14', '15', '16', '17', '18', '19'],
  TO: ['63'],
};

/** Rows fetched per statement while exporting. */
const EXPORT_BATCH = 500;

export interface ContactsReportInput {
  readonly actor: Actor;
  /** Creation days on the company's clock, both included. */
  readonly startDate?: string;
  readonly endDate?: string;
  readonly tagIds?: readonly number[];
  /** States (`SP`) or area codes (`11`): numbers of Brazil (`55`) under them. */
  readonly ddds?: readonly string[];
  readonly searchParam?: string;
}

/** The number prefixes of states and area codes; 422 for anything else. */
export function numberPrefixes(ddds: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const raw of ddds) {
    const value = raw.trim().toUpperCase();
    if (/^\d{2}$/.test(value)) prefixes.add(`55${value}`);
    else if (STATE_AREA_CODES[value]) for (const code of STATE_AREA_CODES[value]) prefixes.add(`55${code}`);
    else throw new ValidationError('ERR_VALIDATION');
  }
  return [...prefixes].sort();
}

/**
 * Who may read the report: admins, and operators an admin gave the dashboard (`showDashboard`);
 * the filter it asks for, checked (tags of the company, days in its zone).
 */
async function reportFilter(deps: { users: Users; tags: Tags; settings: Settings; clock: Clock }, input: ContactsReportInput): Promise<ContactReportFilter> {
  const { actor } = input;
  if (!isAdmin(actor) && (await deps.users.findById(actor.companyId, actor.userId))?.showDashboard !== 'enabled') throw new ForbiddenError('ERR_NO_PERMISSION');
  const tagIds = [...new Set(input.tagIds ?? [])];
  if (tagIds.length && (await deps.tags.findByIds(actor.companyId, tagIds)).length !== tagIds.length) throw new NotFoundError('ERR_NO_TAG_FOUND');
  const dated = Boolean(input.startDate || input.endDate);
  const range = dated ? await rangeFor(deps, actor.companyId, { dateFrom: input.startDate, dateTo: input.endDate, days: 731 }) : null;
  const prefixes = numberPrefixes(input.ddds ?? []);
  return {
    companyId: actor.companyId,
    ...(range ? { createdFrom: range.from, createdBefore: range.to } : {}),
    ...(tagIds.length ? { tagIds } : {}),
    ...(prefixes.length ? { numberPrefixes: prefixes } : {}),
    ...(input.searchParam?.trim() ? { search: input.searchParam.trim() } : {}),
  };
}

type Deps = { report: ContactsReport; users: Users; tags: Tags; settings: Settings; clock: Clock };

const view = (c: ReportContact) => ({ id: c.id, name: c.name, number: c.number, email: c.email ?? '', createdAt: c.createdAt.toISOString() });

/** `GET /contacts-report`: a page (20) of the contacts created in the range, oldest first, with the total. */
export class ContactsReportPage {
  constructor(private readonly deps: Deps) {}

  async execute(input: ContactsReportInput & { readonly pageNumber?: number }) {
    const filter = await reportFilter(this.deps, input);
    const page = pageFromNumber(input.pageNumber);
    const found = await this.deps.report.page(filter, page);
    return { contacts: found.rows.map(view), count: found.count, hasMore: hasMore(page, found.count) };
  }
}

/** A CSV cell: quoted when needed, and a leading `=`, `+`, `-` or `@` neutralised (no formula runs when opened in a spreadsheet). */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n;]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const CONTACTS_CSV_HEADER = ['id', 'name', 'number', 'email', 'createdAt'] as const;

/**
 * The same report as CSV lines (a header, then one line per contact, `\r\n` ends), read in
 * batches by id as the consumer pulls them: an export of any size never sits whole in memory.
 * The filter is checked before the first line, so a refusal is still an error answer.
 */
export class ExportContactsReport {
  constructor(private readonly deps: Deps) {}

  async execute(input: ContactsReportInput): Promise<AsyncIterable<string>> {
    const filter = await reportFilter(this.deps, input);
    const { report } = this.deps;
    async function* lines(): AsyncGenerator<string> {
      yield `${CONTACTS_CSV_HEADER.join(',')}\r\n`;
      let after = 0;
      for (;;) {
        const batch = await report.batch(filter, after, EXPORT_BATCH);
        if (batch.length) yield batch.map((c) => `${[c.id, c.name, c.number, c.email ?? '', c.createdAt.toISOString()].map(csvCell).join(',')}\r\n`).join('');
        if (batch.length < EXPORT_BATCH) return;
        after = batch[batch.length - 1]!.id;
      }
    }
    return lines();
  }
}
