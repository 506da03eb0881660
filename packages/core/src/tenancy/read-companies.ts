import { assertSuper, isSuper, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { BlobStorage } from '../shared/ports.js';
import { toCompanyView, type Company, type CompanyView } from './company.js';
import { toPlanView, type PlanView } from './plan.js';
import type { Companies, CompanyLogins, Plans } from './ports.js';

/** A company the actor may see: its own, or any for super users. 404 otherwise. */
export async function visibleCompany(companies: Companies, actor: Actor, id: number) {
  const company = isSuper(actor) || actor.companyId === id ? await companies.findById(id) : null;
  if (!company) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
  return company;
}

export class ListCompanies {
  constructor(private readonly deps: { companies: Companies }) {}

  async execute(input: { actor: Actor; searchParam?: string; pageNumber?: number }) {
    assertSuper(input.actor);
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.companies.list({ search: input.searchParam, page });
    return { companies: result.rows.map(toCompanyView), count: result.count, hasMore: hasMore(page, result.count) };
  }
}

/** `GET /companies/list`: every company with its plan and its users' last login (the super user's company manager). */
export class ListAllCompanies {
  constructor(private readonly deps: { companies: Companies; plans: Plans; logins: CompanyLogins }) {}

  async execute(input: { actor: Actor }): Promise<CompanyRow[]> {
    assertSuper(input.actor);
    return companyRows(this.deps, await this.deps.companies.listAll());
  }
}

export class ShowCompany {
  constructor(private readonly deps: { companies: Companies }) {}

  async execute(input: { actor: Actor; companyId: number }): Promise<CompanyView> {
    return toCompanyView(await visibleCompany(this.deps.companies, input.actor, input.companyId));
  }
}

export class FindCompanyByEmail {
  constructor(private readonly deps: { companies: Companies }) {}

  async execute(input: { actor: Actor; email: string }): Promise<CompanyView> {
    assertSuper(input.actor);
    const company = await this.deps.companies.findByEmail(input.email.trim().toLowerCase());
    if (!company) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
    return toCompanyView(company);
  }
}

export interface CompanyWithPlan extends CompanyView {
  plan: PlanView | null;
}

/** A company as the super user's lists show it: with its plan and when one of its users last logged in. */
export interface CompanyRow extends CompanyWithPlan {
  lastLogin: string | null;
}

async function companyRows(deps: { plans: Plans; logins: CompanyLogins }, companies: readonly Company[]): Promise<CompanyRow[]> {
  const plans = new Map<number, PlanView | null>();
  for (const planId of new Set(companies.map((c) => c.planId))) {
    const plan = await deps.plans.findById(planId);
    plans.set(planId, plan ? toPlanView(plan) : null);
  }
  const lastLogin = await deps.logins.lastLoginByCompany(companies.map((c) => c.id));
  return companies.map((c) => ({ ...toCompanyView(c), plan: plans.get(c.planId) ?? null, lastLogin: lastLogin.get(c.id)?.toISOString() ?? null }));
}

async function withPlan(plans: Plans, company: Parameters<typeof toCompanyView>[0]): Promise<CompanyWithPlan> {
  const plan = await plans.findById(company.planId);
  return { ...toCompanyView(company), plan: plan ? toPlanView(plan) : null };
}

/** `GET /companies/listPlan/:id`: a company with its plan, so the frontend knows the features. */
export class ShowCompanyWithPlan {
  constructor(private readonly deps: { companies: Companies; plans: Plans }) {}

  async execute(input: { actor: Actor; companyId: number }): Promise<CompanyWithPlan> {
    return withPlan(this.deps.plans, await visibleCompany(this.deps.companies, input.actor, input.companyId));
  }
}

/** `GET /companiesPlan`: a page of companies with their plans (the super user's companies page scrolls through it). */
export class ListCompaniesWithPlans {
  constructor(private readonly deps: { companies: Companies; plans: Plans; logins: CompanyLogins }) {}

  async execute(input: { actor: Actor; searchParam?: string; pageNumber?: number }): Promise<{ companies: CompanyRow[]; count: number; hasMore: boolean }> {
    assertSuper(input.actor);
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.companies.list({ search: input.searchParam, page });
    return { companies: await companyRows(this.deps, result.rows), count: result.count, hasMore: hasMore(page, result.count) };
  }
}

/** Bytes the company's uploads take in blob storage, public and private. */
export class GetCompanyDiskUsage {
  constructor(private readonly deps: { companies: Companies; blobs: BlobStorage }) {}

  async execute(input: { actor: Actor; companyId: number }) {
    const company = await visibleCompany(this.deps.companies, input.actor, input.companyId);
    // Profile pictures live under the lineage's path (`public/company<id>/user/`), the rest under `public/company-<id>/`.
    const publicBytes = (await this.deps.blobs.usage(`public/company-${company.id}/`)) + (await this.deps.blobs.usage(`public/company${company.id}/`));
    const privateBytes = await this.deps.blobs.usage(`private/company-${company.id}/`);
    return { companyId: company.id, publicBytes, privateBytes, totalBytes: publicBytes + privateBytes };
  }
}
