import type { Users } from '../identity/ports.js';
import { assertFreeEmail, assertName, assertPassword } from '../identity/user-rules.js';
import { toUserView, type UserView } from '../identity/user.js';
import { NotFoundError } from '../shared/errors.js';
import type { Clock, PasswordHasher, Transaction } from '../shared/ports.js';
import { toCompanyView, type CompanyView } from '../tenancy/company.js';
import { cleanCompanyEmail, cleanCompanyName, cleanDocument, cleanDueDate, emptyWeek } from '../tenancy/company-input.js';
import type { Companies, Plans } from '../tenancy/ports.js';

export interface OnboardCompanyInput {
  readonly name: string;
  readonly email?: string | null;
  readonly phone?: string | null;
  readonly document?: string | null;
  readonly status?: boolean;
  readonly planId: number;
  readonly dueDate?: string | null;
  readonly recurrence?: string;
  readonly paymentMethod?: string | null;
  readonly admin: { readonly name: string; readonly email: string; readonly password: string };
}

export interface OnboardedCompany {
  readonly company: CompanyView;
  readonly user: UserView;
}

/** Creates a company and its first admin together: either both exist afterwards or neither. */
export class CompanyOnboarding {
  constructor(
    private readonly deps: {
      companies: Companies;
      plans: Plans;
      users: Users;
      hasher: PasswordHasher;
      tx: Transaction;
      clock: Clock;
    },
  ) {}

  async onboard(input: OnboardCompanyInput): Promise<OnboardedCompany> {
    const { companies, plans, users, hasher, tx, clock } = this.deps;
    const name = cleanCompanyName(input.name);
    const adminName = assertName(input.admin.name);
    assertPassword(input.admin.password);
    const email = cleanCompanyEmail(input.email);
    const document = cleanDocument(input.document);
    const dueDate = cleanDueDate(input.dueDate);
    const passwordHash = await hasher.hash(input.admin.password);

    return tx.run(async () => {
      const plan = await plans.findById(input.planId);
      if (!plan) throw new NotFoundError('ERR_NO_PLAN_FOUND');
      const adminEmail = await assertFreeEmail(users, input.admin.email);
      const now = clock.now();
      const company = await companies.add({
        name,
        email,
        phone: input.phone?.trim() || null,
        document,
        status: input.status ?? true,
        planId: plan.id,
        dueDate,
        recurrence: input.recurrence ?? plan.recurrence,
        paymentMethod: input.paymentMethod ?? null,
        schedules: emptyWeek(),
        createdAt: now,
        updatedAt: now,
      });
      const user = await users.add({
        companyId: company.id,
        name: adminName,
        email: adminEmail,
        passwordHash,
        profile: 'admin',
        tokenVersion: 0,
        mustChangePassword: false,
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
      return { company: toCompanyView(company), user: toUserView(user) };
    });
  }
}
