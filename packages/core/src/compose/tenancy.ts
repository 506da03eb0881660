import { LookupCnpj, type CompanyRegistry } from '../cnpj/lookup-cnpj.js';
import type { RefreshSessions, Users } from '../identity/ports.js';
import type { RealtimeEvent } from '../events/realtime-event.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Settings } from '../settings/ports.js';
import type { BlobStorage, Clock, PasswordHasher, Transaction } from '../shared/ports.js';
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

/** The ports of companies, plans and sign-up. */
export interface TenancyPorts {
  readonly users: Users;
  readonly refreshSessions: RefreshSessions;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly settings: Settings;
  readonly hasher: PasswordHasher;
  readonly blobs: BlobStorage;
  readonly realtime: RealtimeEvents<RealtimeEvent>;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly companyRegistry: CompanyRegistry;
}

/** Companies, their plans, sign-up and the platform seed (`app.tenancy`). */
export function createTenancy(p: TenancyPorts) {
  const { users, companies, plans, settings, hasher, blobs, realtime, tx, clock } = p;
  // A deactivated company's users: every access token dead (version bump), every refresh family revoked.
  const companySessions: CompanySessions = {
    async endAll(companyId, at) {
      await users.bumpTokenVersionsOfCompany(companyId);
      await p.refreshSessions.revokeAllOfCompany(companyId, at);
    },
  };
  const onboarding = new CompanyOnboarding({ companies, plans, users, hasher, tx, clock });
  return {
    planGuard: new PlanGuard({ companies, plans }),
    seedPlatform: new SeedPlatform({ plans, companies, users, hasher, tx, clock }),
    signup: new Signup({ onboarding, plans, settings, clock }),
    lookupCnpj: new LookupCnpj({ registry: p.companyRegistry }),
    listCompanies: new ListCompanies({ companies }),
    listAllCompanies: new ListAllCompanies({ companies, plans, logins: users }),
    showCompany: new ShowCompany({ companies }),
    findCompanyByEmail: new FindCompanyByEmail({ companies }),
    showCompanyWithPlan: new ShowCompanyWithPlan({ companies, plans }),
    listCompaniesWithPlans: new ListCompaniesWithPlans({ companies, plans, logins: users }),
    companyDiskUsage: new GetCompanyDiskUsage({ companies, blobs }),
    createCompany: new CreateCompany({ onboarding, plans }),
    updateCompany: new UpdateCompany({ companies, plans, sessions: companySessions, tx, clock, realtime }),
    updateCompanySchedules: new UpdateCompanySchedules({ companies, clock, realtime }),
    deleteCompany: new DeleteCompany({ companies, users }),
    listPlans: new ListPlans({ plans, companies }),
    showPlan: new ShowPlan({ plans, companies }),
    createPlan: new CreatePlan({ plans, clock }),
    updatePlan: new UpdatePlan({ plans, clock }),
    deletePlan: new DeletePlan({ plans, companies }),
  };
}

export type TenancyApi = ReturnType<typeof createTenancy>;
