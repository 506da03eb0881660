import { NotFoundError } from '../shared/errors.js';
import type { Company } from '../tenancy/company.js';
import type { Companies } from '../tenancy/ports.js';
import { toUserView, type User, type UserView } from './user.js';
import type { UserLinks, UserQueueRef } from './user-queues.js';

/** The company as a user's record carries it: what the frontend reads at login (its due date above all). */
export interface UserCompanyRef {
  readonly id: number;
  readonly name: string;
  readonly email: string | null;
  readonly phone: string | null;
  readonly document: string | null;
  readonly status: boolean;
  readonly planId: number;
  readonly dueDate: string | null;
  readonly recurrence: string;
  readonly paymentMethod: string | null;
}

/** A user with their queues and company: what login, refresh, `/auth/me`, the user routes and `user` events answer. */
export interface UserDetails extends UserView {
  readonly queues: UserQueueRef[];
  readonly company: UserCompanyRef | null;
}

function companyRef(c: Company): UserCompanyRef {
  return {
    id: c.id,
    name: c.name,
    email: c.email,
    phone: c.phone,
    document: c.document,
    status: c.status,
    planId: c.planId,
    dueDate: c.dueDate,
    recurrence: c.recurrence,
    paymentMethod: c.paymentMethod,
  };
}

/** Reads what a user's record links to (queues, company) and checks the links a user form sets (queues, default connection). */
export class UserDetailsReader {
  constructor(private readonly deps: { links: UserLinks; companies: Companies }) {}

  /** Makes the user's queues exactly those of `queueIds` that belong to the company. */
  setQueues(companyId: number, userId: number, queueIds: readonly number[]): Promise<void> {
    return this.deps.links.setQueues(companyId, userId, queueIds);
  }

  async one(user: User): Promise<UserDetails> {
    return (await this.many([user]))[0]!;
  }

  /** Users of one company or several; each company is read once. */
  async many(users: readonly User[]): Promise<UserDetails[]> {
    const companies = new Map<number, UserCompanyRef | null>();
    const queues = new Map<number, UserQueueRef[]>();
    for (const companyId of new Set(users.map((u) => u.companyId))) {
      const company = await this.deps.companies.findById(companyId);
      companies.set(companyId, company ? companyRef(company) : null);
      const ofCompany = await this.deps.links.queuesOf(
        companyId,
        users.filter((u) => u.companyId === companyId).map((u) => u.id),
      );
      for (const [userId, refs] of ofCompany) queues.set(userId, refs);
    }
    return users.map((u) => ({ ...toUserView(u), queues: queues.get(u.id) ?? [], company: companies.get(u.companyId) ?? null }));
  }

  /** A default connection must be one of the company's (404 `ERR_NO_CONNECTION_FOUND`). */
  async assertConnection(companyId: number, chatappId: number | null | undefined): Promise<void> {
    if (chatappId === null || chatappId === undefined) return;
    if (!(await this.deps.links.hasConnection(companyId, chatappId))) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
  }

  /** Every queue id must be one of the company's (404 `ERR_QUEUE_NOT_FOUND`). */
  async assertQueues(companyId: number, queueIds: readonly number[] | undefined): Promise<void> {
    if (!queueIds?.length) return;
    const unique = [...new Set(queueIds)];
    if ((await this.deps.links.knownQueueIds(companyId, unique)).length !== unique.length) throw new NotFoundError('ERR_QUEUE_NOT_FOUND');
  }
}
