import { createApplication, type Message } from '../../src/index.js';
import { SEND_JOB, type SendJobPayload } from '../../src/schedules/arming.js';
import type { SchedulePolicy } from '../../src/schedules/run-occurrence.js';
import { ticketWorld } from '../messaging/ticket-world.js';

export { code } from '../messaging/ticket-world.js';

/**
 * The ticket world (Acme with a connected default connection, operators Ana and Bia, an admin) with
 * the schedules' jobs defined, the company on New York's clock (which changes for daylight saving)
 * and the clock set to `start`. `runDue` does what a job runner does with the due send jobs.
 */
export async function scheduleWorld(start = '2026-03-02T12:00:00.000Z', policy?: Partial<SchedulePolicy>) {
  const w = await ticketWorld();
  if (policy) {
    const ports = { ...w.ports, schedulePolicy: { missedAfterMs: 24 * 3_600_000, recipientGapMs: 5_000, maxAttempts: 8, ...policy } };
    Object.assign(w, { app: createApplication(ports) });
  }
  w.ports.jobDefinitions.push(...w.app.schedules.jobs());
  w.ports.clock.advance(Date.parse(start) - w.ports.clock.now().getTime());
  await w.ports.settings.put(w.acme.id, 'timezone', 'America/New_York');
  const clock = {
    now: () => w.ports.clock.now(),
    /** Moves the clock to an instant (never back). */
    to(iso: string) {
      const delta = Date.parse(iso) - w.ports.clock.now().getTime();
      if (delta < 0) throw new Error(`the clock cannot go back to ${iso}`);
      w.ports.clock.advance(delta);
    },
  };
  /**
   * Runs every due send job once in its own transaction, then completes it (as the runner does);
   * again while runs enqueue jobs that are already due. Answers the errors of failed runs (their
   * jobs are failed with a retry, as the runner would).
   */
  async function runDue(options: { attempt?: number } = {}): Promise<string[]> {
    const errors: string[] = [];
    for (let round = 0; round < 50; round++) {
      const jobs = await w.ports.jobStore.claim({ owner: 'test', limit: 100, leaseMs: new Map([[SEND_JOB, 60_000]]) });
      if (!jobs.length) return errors;
      for (const job of jobs) {
        try {
          await w.ports.tx.run(async () => {
            await w.app.schedules.runOccurrence.execute(job.payload as SendJobPayload, options.attempt ?? job.attempt);
            await w.ports.jobStore.complete(job.lease);
          });
        } catch (err) {
          errors.push((err as Error).message);
          await w.ports.jobStore.fail(job.lease, { error: (err as Error).message, retryInMs: 10_000 });
        }
      }
    }
    throw new Error('jobs kept coming');
  }
  /** The messages sent so far, oldest first. */
  const sent = (): Message[] => [...w.ports.messages.rows.values()].filter((m) => m.fromMe).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const sendJobs = () => w.ports.jobStore.list({ name: SEND_JOB });
  const occurrences = (scheduleId: number) => w.ports.scheduleOccurrences.latestOf(w.acme.id, scheduleId, 100).then((rows) => rows.reverse());
  return { ...w, clock, runDue, sent, sendJobs, occurrences };
}

export type ScheduleWorld = Awaited<ReturnType<typeof scheduleWorld>>;
