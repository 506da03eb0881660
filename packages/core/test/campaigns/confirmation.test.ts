import { expect } from 'chai';
import { matchesWord, normaliseReply } from '../../src/campaigns/campaign-replies.js';
import { admin, ACME, campaignWorld, CONNECTION, numbers } from './campaign-world.js';

describe('Campaigns: confirmation and stop words', () => {
  it('normalises replies and matches whole replies only', () => {
    expect(normaliseReply('  SIM!!! 👍 ')).to.equal('sim');
    expect(matchesWord('Não quero', ['nao quero'])).to.equal(true);
    expect(matchesWord('sim, mas depois', ['sim'])).to.equal(false);
    expect(matchesWord('', ['sim'])).to.equal(false);
  });

  it('asks first; only a yes word sends the message, a stop word suppresses, anything else changes nothing', async () => {
    const w = campaignWorld();
    const [ana, bruno, carla] = numbers(3);
    w.addList(1, [
      { number: ana!, name: 'Ana' },
      { number: bruno!, name: 'Bruno' },
      { number: carla!, name: 'Carla' },
    ]);
    const c = await w.addCampaign({ confirmation: true, confirmationMessage1: '{nome}, quer receber a oferta? Responda SIM', message1: 'Oferta para {nome}' });
    await w.app.start.execute({ actor: admin, campaignId: c.id });
    const d = w.dispatcher();
    for (let i = 0; i < 2; i++) w.clock.set((await d.execute({ companyId: ACME, connectionId: CONNECTION })).nextRunAt!);
    const asked = await d.execute({ companyId: ACME, connectionId: CONNECTION });
    expect(asked.nextRunAt, 'nothing pending: the next look is when the first question expires').to.deep.equal(
      new Date(w.sender.sent[0]!.at.getTime() + 24 * 3_600_000),
    );
    expect(w.sender.sent.map((s) => s.body)).to.deep.equal([
      'Ana, quer receber a oferta? Responda SIM',
      'Bruno, quer receber a oferta? Responda SIM',
      'Carla, quer receber a oferta? Responda SIM',
    ]);
    expect(w.sender.sent.every((s) => s.media === null)).to.equal(true);
    const reply = (number: string, text: string) => w.app.reply.execute({ companyId: ACME, connectionId: CONNECTION, number, text });
    expect(await reply(ana!, 'quanto custa?')).to.equal('ignored');
    expect(await reply(ana!, 'Sim!')).to.equal('confirmed');
    expect(await reply(ana!, 'sim'), 'answered already').to.equal('ignored');
    expect(await reply(bruno!, 'SAIR')).to.equal('suppressed');
    expect(await w.suppressions.suppressed(ACME, [bruno!])).to.deep.equal(new Set([bruno]));
    expect(await w.pacing.dueConnections(w.clock.now(), 10), 'the yes woke the dispatcher').to.have.length(1);
    w.clock.advance(2000);
    const run = await d.execute({ companyId: ACME, connectionId: CONNECTION });
    expect(run.sent).to.equal(1);
    expect(w.sender.sent.at(-1)).to.include({ number: ana, body: 'Oferta para Ana', idempotencyKey: `campaign:${c.id}:recipient:1:message` });
    expect(await w.campaigns.findById(ACME, c.id), 'Carla may still answer').to.include({ status: 'EM_ANDAMENTO' });
    expect(run.nextRunAt, 'the next look is when the remaining question expires').to.deep.equal(new Date(w.sender.sent[2]!.at.getTime() + 24 * 3_600_000));
    w.clock.set(run.nextRunAt!);
    await d.execute({ companyId: ACME, connectionId: CONNECTION });
    expect(await w.campaigns.findById(ACME, c.id)).to.include({ status: 'FINALIZADA' });
    const { progress } = await w.app.progress.execute({ actor: admin, campaignId: c.id });
    expect(progress).to.include({ total: 3, sent: 1, skipped: 2, confirmationRequested: 3, confirmed: 1, awaitingConfirmation: 0 });
    expect(progress.skippedByReason).to.deep.equal({ 'stop-word': 1, 'no-confirmation': 1 });
    expect(await reply(carla!, 'sim'), 'too late').to.equal('ignored');
  });
});
