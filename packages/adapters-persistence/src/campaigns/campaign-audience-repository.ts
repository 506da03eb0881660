import type { AudienceContact, AudienceListItem, CampaignAudience } from '@servicedesk/core';
import { MikroOrmRepository } from '../shared/context.js';
import { IN_JSON, json, type Row } from './campaign-rows.js';

const CONTACT_COLUMNS = 'c.id, c.name, c.number, c.email, c.blocked, c.is_group';

function toAudienceContact(r: Row): AudienceContact {
  return {
    id: Number(r.id),
    name: String(r.name),
    number: String(r.number),
    email: (r.email as string | null) ?? null,
    blocked: Boolean(r.blocked),
    isGroup: Boolean(r.is_group),
  };
}

/** Where recipients come from: contact-list items, tagged contacts, contacts by canonical number. One query each. */
export class MikroOrmCampaignAudience extends MikroOrmRepository implements CampaignAudience {
  async listItems(companyId: number, contactListId: number): Promise<AudienceListItem[]> {
    const rows = await this.em.execute<Row[]>(
      `select id, name, canonical_number, email, validity, variables from contact_list_items
       where company_id = ? and contact_list_id = ? order by id`,
      [companyId, contactListId],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      name: String(r.name),
      number: String(r.canonical_number),
      email: String(r.email ?? ''),
      validity: r.validity as AudienceListItem['validity'],
      variables: json<Record<string, string>>(r.variables) ?? {},
    }));
  }

  async contactsWithTag(companyId: number, tagId: number) {
    const rows = await this.em.execute<Row[]>(
      `select ${CONTACT_COLUMNS} from contact_tags l join tags g on g.id = l.tag_id join contacts c on c.id = l.contact_id
       where g.id = ? and g.company_id = ? and c.company_id = ? order by c.id`,
      [tagId, companyId, companyId],
    );
    return rows.map(toAudienceContact);
  }

  /** Through the contacts' phone identifiers, whose value is the canonical number. */
  async contactsByNumbers(companyId: number, canonicalNumbers: readonly string[]) {
    if (!canonicalNumbers.length) return [];
    const rows = await this.em.execute<Row[]>(
      `select ${CONTACT_COLUMNS} from contacts c where c.company_id = ? and c.id in (
         select i.contact_id from contact_identifiers i where i.company_id = ? and i.kind = 'phone' and i.value in (${IN_JSON}))
       order by c.id`,
      [companyId, companyId, JSON.stringify(canonicalNumbers)],
    );
    return rows.map(toAudienceContact);
  }
}
