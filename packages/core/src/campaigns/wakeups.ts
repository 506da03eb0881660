import type { CampaignPacing } from './ports.js';

/**
 * Tells the dispatcher of a connection to look at it again at `at` (now, after a start, a resume
 * or a confirmation). Running it earlier than needed is harmless: it only decides again.
 */
export interface CampaignWakeups {
  wake(companyId: number, connectionId: number, at: Date): Promise<void>;
}

/** Wake-ups written where the recurring dispatch job looks for due connections. */
export class PacingWakeups implements CampaignWakeups {
  constructor(private readonly pacing: CampaignPacing) {}

  wake(companyId: number, connectionId: number, at: Date): Promise<void> {
    return this.pacing.setNextRun(companyId, connectionId, at);
  }
}
