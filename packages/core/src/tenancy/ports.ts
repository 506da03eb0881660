import type { Page, PageRequest } from '../shared/paging.js';
import type { Company, NewCompany } from './company.js';
import type { NewPlan, Plan } from './plan.js';

export interface CompanyQuery {
  readonly search?: string;
  readonly page: PageRequest;
}

export interface Companies {
  findById(id: number): Promise<Company | null>;
  findByEmail(email: string): Promise<Company | null>;
  list(query: CompanyQuery): Promise<Page<Company>>;
  listAll(): Promise<Company[]>;
  countByPlan(planId: number): Promise<number>;
  add(company: NewCompany): Promise<Company>;
  update(company: Company): Promise<void>;
  /** Removes the company and, by cascade, everything that belongs to it. */
  remove(id: number): Promise<void>;
}

export interface Plans {
  findById(id: number): Promise<Plan | null>;
  findByName(name: string): Promise<Plan | null>;
  list(query: { search?: string; onlyPublic?: boolean }): Promise<Plan[]>;
  add(plan: NewPlan): Promise<Plan>;
  update(plan: Plan): Promise<void>;
  remove(id: number): Promise<void>;
}

/**
 * Ends every session of a company's users at once (its deactivation): their access tokens stop
 * working and their refresh families are revoked. Identity's stores implement it; the composition
 * wires them, since tenancy does not know identity.
 */
export interface CompanySessions {
  endAll(companyId: number, at: Date): Promise<void>;
}

/** When one of each company's users last logged in (absent: never), for the super user's company lists; identity's `Users` answers it. */
export interface CompanyLogins {
  lastLoginByCompany(companyIds: readonly number[]): Promise<Map<number, Date>>;
}

/**
 * Companies suspended for an overdue invoice (the billing feature keeps them; absent: none is).
 * Suspension takes nothing away: the company's users other than its admins cannot log in or use
 * their sessions, and nobody of it sends, until it pays; its admins still log in, to pay.
 */
export interface CompanySuspensions {
  isSuspended(companyId: number): Promise<boolean>;
}
