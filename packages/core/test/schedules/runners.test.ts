import { expect } from 'chai';
import { JobRunner, type Transaction } from '../../src/index.js';
import { SEND_JOB } from '../../src/schedules/arming.js';
import { scheduleWorld, type ScheduleWorld } from './schedule-world.js';

async function until(check: () => boolean | Promise<boolean>, what: string) {
  const end = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('Schedules: two job runners on one store', () => {
  let runners: JobRunner[] = [];
  afterEach(async () => {
    await Promise.all(runners.map((r) => r.stop({ timeoutMs: 0 })));
    runners = [];
  });

  function runner(w: ScheduleWorld, owner: string, transaction: Transaction = w.ports.tx, concurrency = 4) {
    const r = new JobRunner({ store: w.ports.jobStore, transaction, definitions: w.ports.jobDefinitions, owner, clock: w.ports.clock, pollMs: 2, concurrency });
    runners.push(r);
    return r;
  }

  it('send each of many schedules due at one moment exactly once', async () => {
    const w = await scheduleWorld();
    const ids: number[] = [];
    for (let i = 0; i < 15; i++) {
      const contact = await w.contact();
      ids.push(
        (await w.app.schedules.createSchedule.execute({ actor: w.ana, schedule: { body: `Lembrete ${i}`, sendAt: '2026-03-05 09:00', contactId: contact.id } }))
          .id,
      );
    }
    w.clock.to('2026-03-05T14:00:00.000Z');
    await Promise.all([runner(w, 'a').start(), runner(w, 'b').start()]);
    await until(async () => w.sent().length === 15 && (await w.sendJobs()).length === 0, 'every schedule sent');
    expect(
      w
        .sent()
        .map((m) => m.body)
        .sort(),
    ).to.deep.equal(Array.from({ length: 15 }, (_, i) => `Lembrete ${i}`).sort());
    expect(new Set(w.sent().map((m) => m.contactId)).size).to.equal(15);
    for (const id of ids) expect((await w.occurrences(id)).map((o) => [o.status, o.sent])).to.deep.equal([['sent', 1]]);
    const metrics = runners.map((r) => r.metrics()[SEND_JOB]!.runs);
    expect(metrics.reduce((a, b) => a + b, 0)).to.equal(15);
  });

  it('a runner whose lease lapsed mid-run changes nothing: the one that took the job over sent it, once', async () => {
    const w = await scheduleWorld();
    const contact = await w.contact();
    await w.app.schedules.createSchedule.execute({ actor: w.ana, schedule: { body: 'Só uma vez', sendAt: '2026-03-05 09:00', contactId: contact.id } });
    w.clock.to('2026-03-05T14:00:00.000Z');
    // Runner a (one job at a time) claims the job, then stalls before its transaction starts (a long GC pause, a slow disk).
    let stalled = false;
    let resume!: () => void;
    const gate = new Promise<void>((resolve) => {
      resume = resolve;
    });
    const slow: Transaction = {
      run: async (work) => {
        if (!stalled) {
          stalled = true;
          await gate;
        }
        return w.ports.tx.run(work);
      },
      afterCommit: (callback) => w.ports.tx.afterCommit(callback),
      runApart: (work) => w.ports.tx.runApart(work),
    };
    const a = runner(w, 'a', slow, 1);
    await a.start();
    await until(() => stalled, 'runner a to claim the job');
    w.clock.to('2026-03-05T14:01:01.000Z'); // past the 60 s lease
    const b = runner(w, 'b');
    await b.start();
    await until(() => w.sent().length === 1, 'runner b to send it');
    expect(b.metrics()[SEND_JOB]!.runs).to.equal(1);
    resume();
    await until(() => a.metrics()[SEND_JOB]!.runs === 1, 'runner a to finish its run');
    expect(a.metrics()[SEND_JOB]!.lastError).to.match(/ERR_JOB_LEASE_LOST|lease/i);
    expect(w.sent()).to.have.length(1);
    expect(await w.sendJobs()).to.deep.equal([]);
  });
});
