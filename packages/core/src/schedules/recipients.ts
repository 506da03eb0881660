import type { Contacts } from '../contacts/ports.js';
import type { Schedule } from './schedule.js';

/** Recipients of one occurrence at most (a larger audience belongs in a campaign, which paces it). */
export const MAX_SCHEDULE_RECIPIENTS = 5_000;
const PAGE = 500;

/**
 * Who an occurrence goes to, read when it fires: the contact of a contact schedule; for a bulk one
 * the chosen contacts and every contact carrying a chosen tag now, each once, without blocked ones
 * (their messages reach nobody) and without contacts deleted meanwhile.
 */
export async function recipientsOf(contacts: Contacts, schedule: Schedule): Promise<number[]> {
  const { companyId } = schedule;
  if (schedule.kind === 'contact') {
    const contact = schedule.contactId === null ? null : await contacts.findById(companyId, schedule.contactId);
    return contact ? [contact.id] : [];
  }
  const chosen = new Set<number>();
  for (const c of await contacts.findByIds(companyId, schedule.contactIds)) if (!c.blocked) chosen.add(c.id);
  if (schedule.tagIds.length) {
    for (let offset = 0; chosen.size < MAX_SCHEDULE_RECIPIENTS; offset += PAGE) {
      const { rows } = await contacts.list({ companyId, tagIds: schedule.tagIds, page: { offset, limit: PAGE } });
      for (const c of rows) if (!c.blocked) chosen.add(c.id);
      if (rows.length < PAGE) break;
    }
  }
  return [...chosen].slice(0, MAX_SCHEDULE_RECIPIENTS);
}
