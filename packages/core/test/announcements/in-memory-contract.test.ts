import { describeAnnouncementsContract } from '../contracts/announcements-contract.js';
import { InMemoryCompanies, InMemoryPlans, InMemoryUsers } from '../../src/testing.js';
import { InMemoryAnnouncementAudience, InMemoryAnnouncements } from '../../src/in-memory/announcements.js';

describeAnnouncementsContract('in-memory', async () => {
  const companies = new InMemoryCompanies();
  const users = new InMemoryUsers();
  const announcements = new InMemoryAnnouncements(companies);
  companies.onRemove.push((id) => announcements.dropCompany(id));
  return { announcements, announcementAudience: new InMemoryAnnouncementAudience(companies, users), companies, plans: new InMemoryPlans(), users };
});
