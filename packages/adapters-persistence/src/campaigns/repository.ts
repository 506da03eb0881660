import type { MikroORM } from '@mikro-orm/core';
import { MikroOrmCampaigns } from './campaigns-repository.js';
import { MikroOrmCampaignRecipients } from './campaign-recipients-repository.js';
import { MikroOrmCampaignPacing } from './campaign-pacing-repository.js';
import { MikroOrmCampaignSuppressions } from './campaign-suppressions-repository.js';
import { MikroOrmCampaignSettingsRows } from './campaign-settings-rows-repository.js';
import { MikroOrmCampaignAudience } from './campaign-audience-repository.js';

/** Every campaign port this package implements, on one database. */
export const campaignsRepositories = (orm: MikroORM) => ({
  campaigns: new MikroOrmCampaigns(orm),
  campaignRecipients: new MikroOrmCampaignRecipients(orm),
  campaignPacing: new MikroOrmCampaignPacing(orm),
  campaignSuppressions: new MikroOrmCampaignSuppressions(orm),
  campaignSettingsRows: new MikroOrmCampaignSettingsRows(orm),
  campaignAudience: new MikroOrmCampaignAudience(orm),
});
