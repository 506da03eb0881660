import { settingsFromRows } from './campaign-settings.js';
import { afterSend, decide, pacingRules, type ConnectionPacingState, type PacingRules, type RandomSource } from './pacing.js';
import type { CampaignConnections, CampaignPacing, CampaignSettingsStore } from './ports.js';

const DAY_MS = 86_400_000;

/**
 * The pacing policy of a connection's dispatcher against stored state: the company's rules (from its
 * settings, on its wall clock), whether a send may go now (the stored pacing state, the day's sends,
 * the session), and what a send changes (the next gap, drawn at random).
 */
export class ConnectionPacer {
  constructor(
    private readonly deps: {
      pacing: Pick<CampaignPacing, 'get' | 'save' | 'sendsSince' | 'recordSend'>;
      settings: CampaignSettingsStore;
      connections: CampaignConnections;
      random: RandomSource;
    },
  ) {}

  /** The company's pacing rules, and how long a confirmation question waits for its answer. */
  async rules(companyId: number): Promise<{ rules: PacingRules; confirmationTimeoutMs: number }> {
    const { settings } = this.deps;
    const values = settingsFromRows(await settings.rows(companyId));
    return { rules: pacingRules(values, await settings.timeZone(companyId)), confirmationTimeoutMs: values.confirmationTimeoutHours * 3_600_000 };
  }

  /** Send now or wait (until when, why), with the state it was decided on. */
  async decision(companyId: number, connectionId: number, rules: PacingRules, now: Date) {
    const { pacing, connections } = this.deps;
    const [state, recentSends, connection] = await Promise.all([
      pacing.get(connectionId),
      pacing.sendsSince(connectionId, new Date(now.getTime() - DAY_MS)),
      connections.find(companyId, connectionId),
    ]);
    return { state, ...decide({ now, rules, state, recentSends, connected: !!connection?.connected }) };
  }

  /**
   * Inside the send's transaction: the state read again (the SQL adapter locks the row, so two
   * dispatchers never both take one gap); answers it when a send may still go now, else null.
   */
  async stillAllowed(connectionId: number, rules: PacingRules, now: Date): Promise<ConnectionPacingState | null> {
    const { pacing } = this.deps;
    const state = await pacing.get(connectionId);
    const recent = await pacing.sendsSince(connectionId, new Date(now.getTime() - DAY_MS));
    return decide({ now, rules, state, recentSends: recent, connected: true }).kind === 'send' ? state : null;
  }

  /** A send went out at `now`: counted for the caps, and the next gap drawn from `state`. */
  async sent(connectionId: number, state: ConnectionPacingState, rules: PacingRules, now: Date): Promise<void> {
    const { pacing, random } = this.deps;
    await pacing.recordSend(connectionId, now);
    await pacing.save(afterSend(state, rules, now, random));
  }
}
