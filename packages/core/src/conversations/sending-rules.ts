import { assertServiceWindow, type ServiceWindows } from '../bizchat/service-window.js';
import type { Connection } from '../connections/connection.js';
import { assertMaySend } from '../tenancy/company-suspension.js';
import type { CompanySuspensions } from '../tenancy/ports.js';

/**
 * What a send to a contact must pass, whoever sends (operators, the message API): the company is
 * not suspended, and free text on a bizchat connection goes only within the contact's service
 * window. One object built in the composition, in place of the two ports in each send.
 */
export class SendingRules {
  constructor(private readonly deps: { suspensions?: CompanySuspensions; windows: ServiceWindows }) {}

  /** A suspended company sends nothing (see `assertMaySend`). */
  companyMaySend(companyId: number): Promise<void> {
    return assertMaySend(this.deps.suspensions, companyId);
  }

  /** Free text to a bizchat contact only within 24 hours of their last message (see `assertServiceWindow`). */
  insideServiceWindow(connection: Pick<Connection, 'id' | 'companyId' | 'kind'>, contactId: number, now: Date): Promise<void> {
    return assertServiceWindow(this.deps.windows, connection, contactId, now);
  }
}
