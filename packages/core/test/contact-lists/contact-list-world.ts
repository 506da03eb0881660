import { createApplication, type Actor, type ChannelQueries, type Connection, type User } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { contactListJobs } from '../../src/contact-lists/jobs.js';
import type { JobDefinition } from '../../src/jobs/job.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';
import { connectionFixture } from '../contracts/messaging-contract.js';

/** A provider that knows the numbers in `known` (by the number asked → its id), refuses while `down` is set, and records what it was asked. */
export class FakeNumberChecks implements ChannelQueries {
  readonly known = new Map<string, string>();
  readonly asked: Array<{ connectionId: number; number: string }> = [];
  down: Error | null = null;

  async checkNumber(connection: Connection, number: string) {
    this.asked.push({ connectionId: connection.id, number });
    if (this.down) throw this.down;
    const id = this.known.get(number);
    return id ? { exists: true, id } : { exists: false, id: null };
  }
  async contacts(): Promise<never> {
    throw new Error('not used');
  }
  async profile(): Promise<never> {
    throw new Error('not used');
  }
}

/**
 * Two companies on in-memory ports: Acme (plan with campaigns) with an admin, an operator and a
 * connected default connection; Other with its admin. `drainJobs` runs the one-off jobs enqueued so far.
 */
export async function contactListWorld() {
  const ports = createInMemoryPorts();
  const checks = new FakeNumberChecks();
  const app = createApplication({ ...ports, channelQueries: checks });
  ports.jobDefinitions.push(...contactListJobs(app.contactLists));
  const plan = await ports.plans.add(planFixture('Full'));
  const acme = await ports.companies.add(companyFixture(plan.id, 'Acme'));
  const other = await ports.companies.add(companyFixture(plan.id, 'Other'));
  const user = async (companyId: number, email: string, overrides: Partial<User> = {}): Promise<Actor> => {
    const u = await ports.users.add(userFixture(companyId, email, overrides));
    return { userId: u.id, companyId, profile: u.profile };
  };
  const admin = await user(acme.id, 'admin@acme.test', { profile: 'admin' });
  const operator = await user(acme.id, 'op@acme.test');
  const otherAdmin = await user(other.id, 'admin@other.test', { profile: 'admin' });
  const connection = await ports.connections.add(connectionFixture(acme.id, 'Main', { status: 'CONNECTED', isDefault: true }));

  const definitions = new Map<string, JobDefinition<any>>(ports.jobDefinitions.map((d) => [d.name, d]));
  /** Runs every due one-off job (and those they enqueue) until none is left; answers how many runs it made. */
  async function drainJobs(): Promise<number> {
    let runs = 0;
    for (;;) {
      const leaseMs = new Map([...definitions.keys()].map((name) => [name, 60_000]));
      const [job] = await ports.jobStore.claim({ owner: 'test', limit: 1, leaseMs });
      if (!job) return runs;
      await definitions.get(job.name)!.run({ id: job.id, name: job.name, payload: job.payload, attempt: job.attempt, runAt: job.runAt });
      await ports.jobStore.complete(job.lease);
      runs++;
    }
  }
  const events = (entity?: string) => ports.realtime.events.filter((e) => !entity || e.entity === entity);
  return { ports, app, checks, acme, other, plan, admin, operator, otherAdmin, connection, drainJobs, events };
}

export type ContactListWorld = Awaited<ReturnType<typeof contactListWorld>>;

/** The error code a promise rejects with, or `resolved`. */
export const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
