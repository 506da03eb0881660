import { expect } from 'chai';
import type { CampaignSender } from '../../src/campaigns/ports.js';
import { localParts } from '../../src/campaigns/sending-window.js';
import { ACME, campaignWorld, CONNECTION, numbers, seeded } from './campaign-world.js';

const SP = 'America/Sao_Paulo';
const HOUR = 3_600_000;

describe('Campaigns: a 1,000-recipient run on a fake clock', () => {
  it("sends each recipient once, paced 1–2 s, pausing at the window's end and at the hourly cap, through a restart and a crash", async function () {
    this.timeout(120_000);
    // Monday 2024-06-03 19:50 in São Paulo (UTC-3): the window (08:00–20:00, weekdays) closes ten minutes in.
    const w = campaignWorld(Date.parse('2024-06-03T22:50:00Z'), 11);
    w.setSettings({
      messageInterval: '1',
      messageIntervalMax: '2',
      startHour: '08:00',
      endHour: '20:00',
      sabado: 'false',
      domingo: 'false',
      capHourly: '500',
      capDaily: '0',
    });
    const all = numbers(1000);
    w.addList(
      1,
      all.map((number, i) => ({ number, name: `C${i}` })),
    );
    const c = await w.addCampaign({ status: 'PROGRAMADA', scheduledAt: w.clock.now() });
    expect(await w.app.startDue.execute()).to.equal(1);

    let crashArmed = true;
    const crashing: CampaignSender = {
      async send(send) {
        if (crashArmed && w.sender.sent.length === 600) {
          crashArmed = false;
          throw new Error('process killed mid-send');
        }
        return w.sender.send(send);
      },
    };
    const make = (seed: number) => w.dispatcher(seeded(seed), crashing);
    let d = make(1);
    let restartedAt: { at: number; lastSentAt: number; gap: number } | null = null;
    let crashedAt: number | null = null;
    for (let i = 0; i < 20_000; i++) {
      let result: Awaited<ReturnType<typeof d.execute>>;
      try {
        result = await d.execute({ companyId: ACME, connectionId: CONNECTION });
      } catch (err) {
        expect((err as Error).message).to.equal('process killed mid-send');
        crashedAt = w.clock.t;
        d = make(3); // a new instance on the same repositories
        w.clock.advance(5_000);
        continue;
      }
      if (!restartedAt && w.sender.sent.length >= 250) {
        const state = await w.pacing.get(CONNECTION);
        d = make(2); // restart: a new dispatcher, 30 s later
        w.clock.advance(30_000);
        restartedAt = { at: w.clock.t, lastSentAt: state.lastSentAt!.getTime(), gap: state.nextGapMs };
        continue;
      }
      if (!result.nextRunAt) break;
      if (result.nextRunAt.getTime() > w.clock.t) w.clock.set(result.nextRunAt);
    }

    const sends = w.sender.sent.map((s) => ({ number: s.number, at: s.at.getTime() }));
    expect(sends).to.have.length(1000);
    expect(new Set(sends.map((s) => s.number)).size, 'each recipient once').to.equal(1000);
    expect(new Set(sends.map((s) => s.number))).to.deep.equal(new Set(all));
    expect(await w.campaigns.findById(ACME, c.id)).to.include({ status: 'FINALIZADA' });
    expect(crashedAt).to.be.a('number');

    const gaps = sends.slice(1).map((s, i) => s.at - sends[i]!.at);
    expect(Math.min(...gaps), 'never compressed').to.be.at.least(1000);
    for (const s of sends) {
      const p = localParts(s.at, SP);
      expect(p.weekday >= 1 && p.weekday <= 5 && p.minute >= 8 * 60 && p.minute < 20 * 60, `inside the window: ${new Date(s.at).toISOString()}`).to.equal(true);
    }
    for (let i = 500; i < sends.length; i++) expect(sends[i]!.at - sends[i - 500]!.at, 'at most 500 in any hour').to.be.at.least(HOUR);

    // The window closed mid-run: the last send of Monday before 20:00, the next one Tuesday 08:00 sharp.
    const overnight = gaps.findIndex((g) => g > 10 * HOUR);
    expect(new Date(sends[overnight]!.at).toISOString() < '2024-06-03T23:00:00.000Z').to.equal(true);
    expect(new Date(sends[overnight + 1]!.at).toISOString()).to.equal('2024-06-04T11:00:00.000Z');
    // The hourly cap paused it on Tuesday morning until the 500th-last send was an hour old.
    const capPause = gaps.findIndex((g, i) => i > overnight && g > 60_000 && g < 2 * HOUR && sends[i + 1]!.at === sends[i + 1 - 500]!.at + HOUR);
    expect(capPause, 'a pause at the cap').to.be.greaterThan(overnight);
    // 30 s of downtime: the restarted instance went on from the stored gap, one send, then 1–2 s again.
    const firstAfter = sends.find((s) => s.at >= restartedAt!.at)!;
    expect(firstAfter.at).to.equal(Math.max(restartedAt!.at, restartedAt!.lastSentAt + restartedAt!.gap));
    // Between the two sends around the crash, paced as always; the recipient whose send died was sent once, later.
    const { progress } = await w.app.progress.execute({ actor: { userId: 1, companyId: ACME, profile: 'admin' }, campaignId: c.id });
    expect(progress).to.include({ total: 1000, sent: 1000, pending: 0 });
    const frames = w.events.filter((e) => e.event.entity === 'campaignProgress').length;
    expect(frames, 'at most one progress frame a second (sends are 1–2 s apart here), plus the final one').to.be.at.most(1001);
  });
});
