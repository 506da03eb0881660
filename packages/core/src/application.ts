import { createMessaging, type MessagingPorts } from './messaging/messaging-application.js';
import { LookupCnpj, type CompanyRegistry } from './cnpj/lookup-cnpj.js';
import { Authenticate } from './identity/authenticate.js';
import { CreateUser } from './identity/create-user.js';
import { DeleteUser } from './identity/delete-user.js';
import { LoginThrottle, type LoginThrottlePolicy } from './identity/login-throttle.js';
import { Login } from './identity/login.js';
import { Logout } from './identity/logout.js';
import type { RefreshSessions, Tokens, Users } from './identity/ports.js';
import { ListUsers, ListUsersForPicker, ShowUser } from './identity/read-users.js';
import { RefreshToken } from './identity/refresh-token.js';
import { SessionIssuer } from './identity/session-issuer.js';
import { Signup } from './identity/signup.js';
import { UpdateUser } from './identity/update-user.js';
import { GetCurrentUser, SetTicketsManagerWidth, SetUserAvatar } from './identity/user-preferences.js';
import type { RealtimeEvents } from './realtime/ports.js';
import { GetCompanySettings, UpdateCompanySetting } from './settings/company-settings.js';
import { GlobalSettings, UploadPrivateSettingFile, UploadWhitelabelImage } from './settings/global-settings.js';
import type { Settings } from './settings/ports.js';
import type { BlobStorage, Cache, Clock, IdGenerator, PasswordHasher, Transaction } from './shared/ports.js';
import { DeleteCompany, UpdateCompany, UpdateCompanySchedules } from './tenancy/change-companies.js';
import { CompanyOnboarding } from './tenancy/company-onboarding.js';
import { CreateCompany } from './tenancy/create-company.js';
import { CreatePlan, DeletePlan, ListPlans, ShowPlan, UpdatePlan } from './tenancy/manage-plans.js';
import { PlanGuard } from './tenancy/plan-guard.js';
import { SeedPlatform } from './tenancy/seed-platform.js';
import type { Companies, Plans } from './tenancy/ports.js';
import {
  FindCompanyByEmail, GetCompanyDiskUsage, ListAllCompanies, ListCompanies, ListCompaniesWithPlans, ShowCompany, ShowCompanyWithPlan,
} from './tenancy/read-companies.js';
import { FindUserByEmail } from './company-api/find-user-by-email.js';
import { CreateHelp, DeleteHelp, ListHelps, ShowHelp, UpdateHelp } from './company-api/manage-helps.js';
import { CreateInvoice, DeleteInvoice, ListInvoices, ShowInvoice, UpdateInvoice } from './company-api/manage-invoices.js';
import { CreatePartner, DeletePartner, ListPartners, ShowPartner, UpdatePartner } from './company-api/manage-partners.js';
import { CountMessagesInRange, CountPlatformContacts, ListPlatformContacts } from './company-api/platform-activity.js';
import type { Helps, Invoices, Partners, PlatformActivity } from './company-api/ports.js';
import { createTags } from './tags/tags-application.js';
import { createContacts } from './contacts/contacts-application.js';
import type { BackgroundJobs } from './shared/background-jobs.js';
import { createQueues, type QueuePorts } from './queues/queues-application.js';

/** Every port the core needs; a composition root supplies one adapter for each. */
export interface CorePorts extends MessagingPorts, QueuePorts {
  readonly users: Users;
  readonly refreshSessions: RefreshSessions;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly settings: Settings;
  readonly tokens: Tokens;
  readonly hasher: PasswordHasher;
  readonly cache: Cache;
  readonly blobs: BlobStorage;
  readonly realtime: RealtimeEvents;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly companyRegistry: CompanyRegistry;
  readonly loginThrottle?: LoginThrottlePolicy;
  readonly helps: Helps;
  readonly partners: Partners;
  readonly invoices: Invoices;
  readonly platformActivity: PlatformActivity;
  /** Runs work after the request that started it (contact imports). */
  readonly jobs: BackgroundJobs;
}

/** Builds every use case from the ports. Pure wiring: no I/O happens here. */
export function createApplication(p: CorePorts) {
  const { users, refreshSessions: sessions, companies, plans, settings, tokens, hasher, cache, blobs, realtime, tx, clock, ids } = p;
  const planGuard = new PlanGuard({ companies, plans });
  const issuer = new SessionIssuer({ sessions, tokens, clock, ids });
  const onboarding = new CompanyOnboarding({ companies, plans, users, hasher, tx, clock });
  return {
    ...createMessaging(p),
    planGuard,
    seedPlatform: new SeedPlatform({ plans, companies, users, hasher, tx, clock }),
    authenticate: new Authenticate({ users, tokens }),
    login: new Login({ users, companies, hasher, throttle: new LoginThrottle(cache, p.loginThrottle), sessions: issuer, clock }),
    refreshToken: new RefreshToken({ users, sessions, tokens, issuer, clock, ids }),
    logout: new Logout({ users, sessions, tokens, clock }),
    signup: new Signup({ onboarding, plans, settings, clock }),
    lookupCnpj: new LookupCnpj({ registry: p.companyRegistry }),
    getCurrentUser: new GetCurrentUser({ users }),
    listUsers: new ListUsers({ users }),
    listUsersForPicker: new ListUsersForPicker({ users }),
    showUser: new ShowUser({ users }),
    createUser: new CreateUser({ users, companies, planGuard, hasher, tx, clock, realtime }),
    updateUser: new UpdateUser({ users, hasher, clock, realtime }),
    deleteUser: new DeleteUser({ users, sessions, clock, realtime }),
    setUserAvatar: new SetUserAvatar({ users, blobs, ids, clock, realtime }),
    setTicketsManagerWidth: new SetTicketsManagerWidth({ users, clock }),
    listCompanies: new ListCompanies({ companies }),
    listAllCompanies: new ListAllCompanies({ companies }),
    showCompany: new ShowCompany({ companies }),
    findCompanyByEmail: new FindCompanyByEmail({ companies }),
    showCompanyWithPlan: new ShowCompanyWithPlan({ companies, plans }),
    listCompaniesWithPlans: new ListCompaniesWithPlans({ companies, plans }),
    companyDiskUsage: new GetCompanyDiskUsage({ companies, blobs }),
    createCompany: new CreateCompany({ onboarding }),
    updateCompany: new UpdateCompany({ companies, plans, clock, realtime }),
    updateCompanySchedules: new UpdateCompanySchedules({ companies, clock, realtime }),
    deleteCompany: new DeleteCompany({ companies, users }),
    listPlans: new ListPlans({ plans }),
    showPlan: new ShowPlan({ plans }),
    createPlan: new CreatePlan({ plans, clock }),
    updatePlan: new UpdatePlan({ plans, clock }),
    deletePlan: new DeletePlan({ plans, companies }),
    companySettings: new GetCompanySettings({ settings }),
    updateCompanySetting: new UpdateCompanySetting({ settings, clock, realtime }),
    globalSettings: new GlobalSettings({ settings, clock }),
    uploadWhitelabelImage: new UploadWhitelabelImage({ settings, blobs, ids, clock }),
    uploadPrivateSettingFile: new UploadPrivateSettingFile({ settings, blobs, ids, clock }),
    listHelps: new ListHelps({ helps: p.helps }),
    showHelp: new ShowHelp({ helps: p.helps }),
    createHelp: new CreateHelp({ helps: p.helps, clock }),
    updateHelp: new UpdateHelp({ helps: p.helps, clock }),
    deleteHelp: new DeleteHelp({ helps: p.helps }),
    listPartners: new ListPartners({ partners: p.partners }),
    showPartner: new ShowPartner({ partners: p.partners }),
    createPartner: new CreatePartner({ partners: p.partners, clock }),
    updatePartner: new UpdatePartner({ partners: p.partners, clock }),
    deletePartner: new DeletePartner({ partners: p.partners }),
    listInvoices: new ListInvoices({ invoices: p.invoices }),
    showInvoice: new ShowInvoice({ invoices: p.invoices }),
    createInvoice: new CreateInvoice({ invoices: p.invoices, companies, clock }),
    updateInvoice: new UpdateInvoice({ invoices: p.invoices, clock }),
    deleteInvoice: new DeleteInvoice({ invoices: p.invoices }),
    findUserByEmail: new FindUserByEmail({ users }),
    listPlatformContacts: new ListPlatformContacts({ activity: p.platformActivity }),
    countPlatformContacts: new CountPlatformContacts({ activity: p.platformActivity }),
    countMessagesInRange: new CountMessagesInRange({ activity: p.platformActivity }),
    ...createTags(p),
    ...createContacts(p),
    ...createQueues(p),
  };
}

export type Application = ReturnType<typeof createApplication>;
