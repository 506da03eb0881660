import { LookupCnpj, type CompanyRegistry } from '../cnpj/lookup-cnpj.js';
import type { RefreshSessions } from '../identity/ports.js';
import type { PasswordHasher } from '../shared/ports.js';
import { DeleteCompany } from '../onboarding/delete-company.js';
import { UpdateCompany, UpdateCompanySchedules } from '../tenancy/change-companies.js';
import { CompanyOnboarding } from '../onboarding/company-onboarding.js';
import { CreateCompany } from '../onboarding/create-company.js';
import { CreatePlan, DeletePlan, ListPlans, ShowPlan, UpdatePlan } from '../tenancy/manage-plans.js';
import { PlanGuard } from '../tenancy/plan-guard.js';
import type { Companies, CompanySessions, Plans } from '../tenancy/ports.js';
import {
  FindCompanyByEmail,
  GetCompanyDiskUsage,
  ListAllCompanies,
  ListCompanies,
  ListCompaniesWithPlans,
  ShowCompany,
  ShowCompanyWithPlan,
} from '../tenancy/read-companies.js';
import { SeedPlatform } from '../onboarding/seed-platform.js';
import { Signup } from '../onboarding/signup.js';
import type { AnnouncementAudience } from '../announcements/ports.js';
import { PlatformFrames } from '../tenancy/platform-events.js';
import type { SharedPorts } from './shared-ports.js';

/** The ports of companies, plans and sign-up. */
export interface TenancyPorts {
  readonly companies: Companies;
  readonly plans: Plans;
  readonly refreshSessions: RefreshSessions;
  readonly hasher: PasswordHasher;
  readonly companyRegistry: CompanyRegistry;
  /** The companies of super users, who are told of every change to companies and plans (announcements' port). */
  readonly announcementAudience: AnnouncementAudience;
}

/** Companies, their plans, sign-up and the platform seed (`app.tenancy`). */
export function createTenancy(p: TenancyPorts & SharedPorts) {
  const { users, companies, plans, settings, hasher, blobs, realtime, tx, clock } = p;
  // A deactivated company's users: every access token dead (version bump), every refresh family revoked.
  const companySessions: CompanySessions = {
    async endAll(companyId, at) {
      await users.bumpTokenVersionsOfCompany(companyId);
      await p.refreshSessions.revokeAllOfCompany(companyId, at);
    },
  };
  const onboarding = new CompanyOnboarding({ companies, plans, users, hasher, tx, clock });
  // The super users' screens (companies, plans) follow every change, whoever made it.
  const platform = new PlatformFrames({ supers: p.announcementAudience, realtime });
  const companyCreated = (_: unknown, made: { company: { id: number } }) => ({ action: 'company', change: 'create', companyId: made.company.id }) as const;
  const companyUpdated = (_: unknown, company: { id: number }) => ({ action: 'company', change: 'update', companyId: company.id }) as const;
  return {
    planGuard: new PlanGuard({ companies, plans }),
    seedPlatform: new SeedPlatform({ plans, companies, users, hasher, tx, clock }),
    signup: platform.announcing(new Signup({ onboarding, plans, settings, clock }), companyCreated),
    lookupCnpj: new LookupCnpj({ registry: p.companyRegistry }),
    listCompanies: new ListCompanies({ companies }),
    listAllCompanies: new ListAllCompanies({ companies, plans, logins: users }),
    showCompany: new ShowCompany({ companies }),
    findCompanyByEmail: new FindCompanyByEmail({ companies }),
    showCompanyWithPlan: new ShowCompanyWithPlan({ companies, plans }),
    listCompaniesWithPlans: new ListCompaniesWithPlans({ companies, plans, logins: users }),
    companyDiskUsage: new GetCompanyDiskUsage({ companies, blobs }),
    createCompany: platform.announcing(new CreateCompany({ onboarding, plans }), companyCreated),
    updateCompany: platform.announcing(new UpdateCompany({ companies, plans, sessions: companySessions, tx, clock, realtime }), companyUpdated),
    updateCompanySchedules: platform.announcing(new UpdateCompanySchedules({ companies, clock, realtime }), companyUpdated),
    deleteCompany: platform.announcing(new DeleteCompany({ companies, users }), (input) => ({
      action: 'company',
      change: 'delete',
      companyId: input.companyId,
    })),
    listPlans: new ListPlans({ plans, companies }),
    showPlan: new ShowPlan({ plans, companies }),
    createPlan: platform.announcing(new CreatePlan({ plans, clock }), (_, plan) => ({ action: 'plan', change: 'create', planId: plan.id })),
    updatePlan: platform.announcing(new UpdatePlan({ plans, clock }), (_, plan) => ({ action: 'plan', change: 'update', planId: plan.id })),
    deletePlan: platform.announcing(new DeletePlan({ plans, companies }), (input) => ({ action: 'plan', change: 'delete', planId: input.planId })),
  };
}

export type TenancyApi = ReturnType<typeof createTenancy>;
