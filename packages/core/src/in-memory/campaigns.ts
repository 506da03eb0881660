import type { Connections } from '../connections/ports.js';
import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import type { Tags } from '../tags/ports.js';
import type { AudienceListItem, CampaignReferenceKind, CampaignReferences, Campaigns } from '../campaigns/ports.js';
import { InMemoryCampaignAudience } from '../campaigns/in-memory-campaign-sources.js';
import type { ContactListItems, ContactListUsage } from '../contact-lists/ports.js';

type NameOf = (companyId: number, id: number) => Promise<string | null>;

/**
 * Campaign references answered from the other in-memory repositories, one lookup per id (the SQL
 * adapter reads each kind in one query). `contactList` names come from wherever the lists live.
 */
export class InMemoryCampaignReferenceLookups implements CampaignReferences {
  private readonly lookups: Record<CampaignReferenceKind, NameOf>;

  constructor(deps: { connections: Connections; users: Users; queues: Queues; tags: Tags; contactListName: NameOf }) {
    const nameOf =
      (find: (companyId: number, id: number) => Promise<{ name: string; companyId?: number | null } | null>): NameOf =>
      async (companyId, id) => {
        const found = await find(companyId, id);
        return found && (found.companyId === undefined || found.companyId === companyId) ? found.name : null;
      };
    this.lookups = {
      connection: nameOf((c, id) => deps.connections.findById(c, id)),
      user: nameOf((c, id) => deps.users.findById(c, id)),
      queue: nameOf((c, id) => deps.queues.findById(c, id)),
      tag: nameOf((c, id) => deps.tags.findById(c, id)),
      contactList: deps.contactListName,
    };
  }

  async names(companyId: number, kind: CampaignReferenceKind, ids: readonly number[]) {
    const out = new Map<number, string>();
    for (const id of ids) {
      const name = await this.lookups[kind](companyId, id);
      if (name !== null) out.set(id, name);
    }
    return out;
  }
}

/** The contact lists' usage answered by the in-memory campaigns: the campaigns that will still read a list when they start. */
export class CampaignsReadingLists implements ContactListUsage {
  constructor(private readonly campaigns: Pick<Campaigns, 'pendingOnContactList'>) {}

  async campaignsReading(companyId: number, contactListId: number) {
    return (await this.campaigns.pendingOnContactList(companyId, contactListId)).map((c) => ({ id: c.id, name: c.name }));
  }
}

/** Campaign audiences whose list items are the in-memory contact lists' (tagged and CRM contacts as the test fills them). */
export class ContactListCampaignAudience extends InMemoryCampaignAudience {
  constructor(private readonly items: Pick<ContactListItems, 'all'>) {
    super();
  }

  override async listItems(companyId: number, contactListId: number): Promise<AudienceListItem[]> {
    return (await this.items.all(companyId, contactListId)).map((i) => ({
      id: i.id,
      name: i.name,
      number: i.canonicalNumber,
      email: i.email,
      validity: i.validity,
      variables: { ...i.variables },
    }));
  }
}
