import { expect } from 'chai';
import { DispatchDueConnections } from '../../src/campaigns/jobs.js';
import { SaveCampaignSettings } from '../../src/campaigns/save-campaign-settings.js';
import { ACME, admin, campaignWorld, CONNECTION, numbers, OTHER } from './campaign-world.js';

/** Whole week, 1–2 s gaps, no long pause, no caps: each scenario narrows one rule. */
const OPEN = {
  messageInterval: 1,
  messageIntervalMax: 2,
  longerIntervalAfter: 0,
  startHour: '00:00',
  endHour: '24:00',
  sabado: true,
  domingo: true,
  capHourly: 0,
  capDaily: 0,
};

/** A running campaign of `count` recipients on ACME's connection, under `settings` saved as the settings page does. */
async function held(settings: Record<string, unknown>, count = 2) {
  // Monday 2024-06-03 09:00 in São Paulo (the company's zone).
  const w = campaignWorld(Date.parse('2024-06-03T12:00:00Z'));
  const saveSettings = new SaveCampaignSettings({
    settings: w.settings,
    pacing: w.pacing,
    plan: w.plan,
    tx: w.transaction,
    clock: w.clock,
    realtime: w.realtime,
  });
  await saveSettings.execute({ actor: admin, settings: { ...OPEN, ...settings } });
  w.addList(
    1,
    numbers(count).map((number) => ({ number })),
  );
  const c = await w.addCampaign();
  await w.app.start.execute({ actor: admin, campaignId: c.id });
  const dispatchDue = new DispatchDueConnections({ pacing: w.pacing, dispatch: w.dispatcher(), clock: w.clock });
  const due = () => w.pacing.dueConnections(w.clock.now(), 10);
  return { w, saveSettings, dispatchDue, due };
}

describe('Campaigns: settings changes re-plan the waiting dispatchers', () => {
  it('a campaign held by the window sends at once when the window is widened to include now', async () => {
    const { w, saveSettings, dispatchDue, due } = await held({ startHour: '10:00', endHour: '11:00' });
    expect(await dispatchDue.execute()).to.equal(0);
    expect(await due(), 'asleep until 10:00').to.deep.equal([]);
    // Another company's waiting dispatcher is not its business.
    await w.pacing.setNextRun(OTHER, 99, new Date(w.clock.t + 3_600_000));

    await saveSettings.execute({ actor: admin, settings: { startHour: '00:00', endHour: '24:00' } });
    expect(await due()).to.deep.equal([{ companyId: ACME, connectionId: CONNECTION }]);
    expect(await dispatchDue.execute()).to.equal(1);
    expect(w.sender.sent).to.have.length(1);
    expect(await w.pacing.dueConnections(new Date(w.clock.t + 3_000_000), 10)).to.not.deep.include({ companyId: OTHER, connectionId: 99 });
  });

  it('a connection at its hourly cap sends at once when the cap is lifted', async () => {
    const { w, saveSettings, dispatchDue, due } = await held({ capHourly: 1 });
    expect(await dispatchDue.execute()).to.equal(1);
    w.clock.advance(2_000);
    expect(await dispatchDue.execute(), 'the gap is over, the cap holds').to.equal(0);
    expect(await due(), 'asleep for an hour').to.deep.equal([]);

    await saveSettings.execute({ actor: admin, settings: { capHourly: 0 } });
    expect(await dispatchDue.execute()).to.equal(1);
    expect(w.sender.sent).to.have.length(2);
  });

  it('a dispatcher run that decided under the old settings does not overwrite the wake-up of a save during it', async () => {
    const { w, saveSettings, due } = await held({ startHour: '10:00', endHour: '11:00' });
    const dispatcher = w.dispatcher();
    const during = {
      async execute(input: { companyId: number; connectionId: number }) {
        const result = await dispatcher.execute(input);
        w.clock.advance(1);
        await saveSettings.execute({ actor: admin, settings: { startHour: '00:00', endHour: '24:00' } });
        return result;
      },
    } as unknown as ConstructorParameters<typeof DispatchDueConnections>[0]['dispatch'];
    expect(await new DispatchDueConnections({ pacing: w.pacing, dispatch: during, clock: w.clock }).execute()).to.equal(0);
    expect(await due()).to.deep.equal([{ companyId: ACME, connectionId: CONNECTION }]);
  });
});
