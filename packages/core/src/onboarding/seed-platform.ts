import type { Users } from '../identity/ports.js';
import type { Clock, PasswordHasher, Transaction } from '../shared/ports.js';
import { normalizeEmail } from '../shared/text.js';
import { emptyWeek } from '../tenancy/company-input.js';
import { PLAN_FEATURES, type PlanFeature } from '../tenancy/plan.js';
import type { Companies, Plans } from '../tenancy/ports.js';

export interface SeedPlatformInput {
  readonly adminEmail: string;
  readonly adminPassword: string;
  /** True when the password is the built-in default: the admin must replace it at first access. */
  readonly passwordIsDefault: boolean;
}

export interface SeedPlatformResult {
  readonly createdPlan: boolean;
  readonly createdCompany: boolean;
  readonly createdAdmin: boolean;
}

/**
 * The backend's seed: a default plan, the first company and the super admin. Idempotent: it
 * only creates what is missing, so it runs at every start-up.
 */
export class SeedPlatform {
  constructor(private readonly deps: { plans: Plans; companies: Companies; users: Users; hasher: PasswordHasher; tx: Transaction; clock: Clock }) {}

  async execute(input: SeedPlatformInput): Promise<SeedPlatformResult> {
    const { plans, companies, users, hasher, tx, clock } = this.deps;
    const email = normalizeEmail(input.adminEmail);
    const passwordHash = (await users.findByEmail(email)) ? null : await hasher.hash(input.adminPassword);
    return tx.run(async () => {
      const now = clock.now();
      let plan = (await plans.list({}))[0];
      const createdPlan = !plan;
      plan ??= await plans.add({
        name: 'Default',
        users: 10,
        connections: 10,
        queues: 10,
        amount: '0.00',
        recurrence: 'MENSAL',
        trial: false,
        trialDays: 0,
        isPublic: true,
        features: Object.fromEntries(PLAN_FEATURES.map((f) => [f, true])) as Record<PlanFeature, boolean>,
        createdAt: now,
        updatedAt: now,
      });
      let company = (await companies.listAll())[0];
      const createdCompany = !company;
      company ??= await companies.add({
        name: 'Service Desk',
        email,
        phone: null,
        document: null,
        status: true,
        planId: plan.id,
        dueDate: null,
        recurrence: 'MENSAL',
        paymentMethod: null,
        schedules: emptyWeek(),
        createdAt: now,
        updatedAt: now,
      });
      const createdAdmin = passwordHash !== null && !(await users.findByEmail(email));
      if (createdAdmin) {
        await users.add({
          companyId: company.id,
          name: 'Admin',
          email,
          passwordHash,
          profile: 'super',
          tokenVersion: 0,
          mustChangePassword: input.passwordIsDefault,
          online: false,
          profileImage: null,
          allTicket: 'enable',
          defaultTicketsManagerWidth: 550,
          defaultTheme: 'light',
          defaultMenu: 'open',
          startWork: null,
          endWork: null,
          farewellMessage: null,
          lastLoginAt: null,
          createdAt: now,
          updatedAt: now,
        });
      }
      return { createdPlan, createdCompany, createdAdmin };
    });
  }
}
