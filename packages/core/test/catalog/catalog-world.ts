import { createApplication, type Actor } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';

/**
 * Two companies on in-memory ports, Acme with an admin and an operator, Other with its admin; the
 * catalog's jobs known to the queue, `drainJobs` runs those enqueued so far.
 */
export async function catalogWorld() {
  const ports = createInMemoryPorts();
  const app = createApplication(ports);
  ports.jobDefinitions.push(...app.catalog.jobs());
  const plan = await ports.plans.add(planFixture('Full'));
  const acme = await ports.companies.add(companyFixture(plan.id, 'Acme'));
  const other = await ports.companies.add(companyFixture(plan.id, 'Other'));
  const definitions = new Map(ports.jobDefinitions.map((d) => [d.name, d]));
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
  const user = async (companyId: number, email: string, profile: 'admin' | 'user'): Promise<Actor> => {
    const u = await ports.users.add(userFixture(companyId, email, { profile }));
    return { userId: u.id, companyId, profile: u.profile };
  };
  return {
    ports,
    app,
    acme,
    admin: await user(acme.id, 'admin@acme.test', 'admin'),
    operator: await user(acme.id, 'op@acme.test', 'user'),
    otherAdmin: await user(other.id, 'admin@other.test', 'admin'),
    catalog: app.catalog,
    drainJobs,
    /** `entity:action` of the events published since the world was made. */
    events: () => ports.realtime.events.map((e) => `${e.entity}:${e.data.action}`),
  };
}

export type CatalogWorld = Awaited<ReturnType<typeof catalogWorld>>;

export const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
