import { fromDayHours, type DayHoursInput } from './day-hours.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { CompanyEvent } from './company-events.js';
import { assertAdmin, assertSuper, type Actor } from '../shared/actor.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { toCompanyView, type CompanyView } from './company.js';
import { cleanCompanyEmail, cleanCompanyName, cleanDocument, cleanDueDate, cleanSchedules, type CompanyFields } from './company-input.js';
import type { Companies, CompanySessions, Plans } from './ports.js';
import { visibleCompany } from './read-companies.js';

/**
 * Super users edit any company's record, plan and status. Deactivating a company ends every
 * session of its users in the same transaction (their tokens answer 401 at once, and stay dead
 * if it is enabled again).
 */
export class UpdateCompany {
  constructor(
    private readonly deps: {
      companies: Companies;
      plans: Plans;
      sessions: CompanySessions;
      tx: Transaction;
      clock: Clock;
      realtime: RealtimeEvents<CompanyEvent>;
    },
  ) {}

  async execute(input: CompanyFields & { actor: Actor; companyId: number }): Promise<CompanyView> {
    assertSuper(input.actor);
    const company = await visibleCompany(this.deps.companies, input.actor, input.companyId);
    if (input.planId !== undefined && input.planId !== company.planId) {
      if (!(await this.deps.plans.findById(input.planId))) throw new NotFoundError('ERR_NO_PLAN_FOUND');
      company.planId = input.planId;
    }
    if (input.name !== undefined) company.name = cleanCompanyName(input.name);
    if (input.email !== undefined) company.email = cleanCompanyEmail(input.email);
    if (input.phone !== undefined) company.phone = input.phone?.trim() || null;
    if (input.document !== undefined) company.document = cleanDocument(input.document);
    const deactivated = input.status === false && company.status;
    if (input.status !== undefined) {
      if (!input.status && input.companyId === input.actor.companyId) throw new ForbiddenError('ERR_CANNOT_DISABLE_OWN_COMPANY');
      company.status = input.status;
    }
    if (input.dueDate !== undefined) company.dueDate = cleanDueDate(input.dueDate);
    if (input.recurrence !== undefined) company.recurrence = input.recurrence;
    if (input.paymentMethod !== undefined) company.paymentMethod = input.paymentMethod;
    const now = this.deps.clock.now();
    company.updatedAt = now;
    await this.deps.tx.run(async () => {
      await this.deps.companies.update(company);
      if (deactivated) await this.deps.sessions.endAll(company.id, now);
    });
    const view = toCompanyView(company);
    await this.deps.realtime.publish(company.id, { entity: 'company', data: { action: 'update', company: view } });
    return view;
  }
}

/** A company's business hours: its own admins, or super users. */
export class UpdateCompanySchedules {
  constructor(private readonly deps: { companies: Companies; clock: Clock; realtime: RealtimeEvents<CompanyEvent> }) {}

  /** `schedules`: the editor's days (`startTimeA`…`endTimeB`) or slots (`startTime`, `endTime`). */
  async execute(input: { actor: Actor; companyId: number; schedules: readonly DayHoursInput[] }): Promise<CompanyView> {
    assertAdmin(input.actor);
    const company = await visibleCompany(this.deps.companies, input.actor, input.companyId);
    company.schedules = cleanSchedules(fromDayHours(input.schedules));
    company.updatedAt = this.deps.clock.now();
    await this.deps.companies.update(company);
    const view = toCompanyView(company);
    await this.deps.realtime.publish(company.id, { entity: 'company', data: { action: 'update', company: view } });
    return view;
  }
}
