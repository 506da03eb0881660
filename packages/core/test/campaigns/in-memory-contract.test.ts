import { InMemoryCampaignAudience, InMemoryCampaignSettings } from '../../src/campaigns/in-memory-campaign-sources.js';
import { InMemoryCampaignPacing } from '../../src/campaigns/in-memory-campaign-pacing.js';
import { InMemoryCampaignRecipients } from '../../src/campaigns/in-memory-campaign-recipients.js';
import { InMemoryCampaigns } from '../../src/campaigns/in-memory-campaigns.js';
import { InMemorySuppressions } from '../../src/campaigns/in-memory-suppressions.js';
import type { AudienceContact } from '../../src/campaigns/ports.js';
import { SerialTransaction } from '../../src/in-memory/support.js';
import { describeCampaignsContract, type CampaignSeed } from '../contracts/campaigns-contract.js';

describeCampaignsContract('in-memory', async () => {
  const campaigns = new InMemoryCampaigns();
  const audience = new InMemoryCampaignAudience();
  let nextId = 1;
  const id = async () => nextId++;
  const seed: CampaignSeed = {
    company: id,
    connection: id,
    user: id,
    queue: id,
    tag: id,
    async contactList(companyId, items) {
      const listId = nextId++;
      const itemIds = items.map(() => nextId++);
      audience.lists.set(
        `${companyId}:${listId}`,
        items.map((item, i) => ({
          id: itemIds[i]!,
          name: item.name,
          number: item.canonicalNumber,
          email: item.email ?? '',
          validity: item.validity ?? 'unknown',
          variables: item.variables ?? {},
        })),
      );
      return { id: listId, itemIds };
    },
    async contact(companyId, c, tagIds = []) {
      const contact: AudienceContact = {
        id: nextId++,
        name: c.name,
        number: c.number,
        email: c.email ?? null,
        blocked: c.blocked ?? false,
        isGroup: c.isGroup ?? false,
      };
      audience.contacts.set(companyId, [...(audience.contacts.get(companyId) ?? []), contact]);
      for (const tagId of tagIds) audience.tagged.set(`${companyId}:${tagId}`, [...(audience.tagged.get(`${companyId}:${tagId}`) ?? []), contact]);
      return contact.id;
    },
  };
  return {
    campaigns,
    recipients: new InMemoryCampaignRecipients(campaigns),
    pacing: new InMemoryCampaignPacing(),
    suppressions: new InMemorySuppressions(),
    settings: new InMemoryCampaignSettings(),
    audience,
    tx: new SerialTransaction(),
    seed,
    rollsBack: false,
  };
});
