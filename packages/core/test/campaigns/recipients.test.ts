import { expect } from 'chai';
import { admin, campaignWorld, CONNECTION } from './campaign-world.js';

describe('Campaigns: recipients materialised at start', () => {
  it('dedups lists and tags by canonical number, skips blocked, suppressed and invalid numbers, snapshots variables, variant and media', async () => {
    const w = campaignWorld();
    w.setSettings({ variables: JSON.stringify([{ key: 'loja', value: 'Centro' }]) });
    w.addList(1, [
      { number: '+55 (11) 98888-0001', name: 'Ana', variables: { cupom: 'A10' } },
      { number: '551188880001', name: 'Ana again' }, // the same mobile without its ninth digit
      { number: '5511988880002', name: 'Bruno' },
      { number: '5511988880003', name: 'Carla', validity: 'invalid' },
      { number: '12', name: 'Short' },
      { number: '5511988880004', name: 'Dora', validity: 'error' },
    ]);
    w.audience.tagged.set('1:7', [
      { id: 51, name: 'Bruno CRM', number: '5511988880002', email: null, blocked: false, isGroup: false },
      { id: 52, name: 'Eva', number: '5511988880005', email: 'eva@x.io', blocked: false, isGroup: false },
      { id: 53, name: 'Group', number: '120363000000000000', email: null, blocked: false, isGroup: true },
    ]);
    w.audience.contacts.set(1, [{ id: 51, name: 'Bruno CRM', number: '551188880002', email: null, blocked: true, isGroup: false }]);
    await w.suppressions.add({ companyId: 1, number: '5511988880005', reason: 'stop-word', campaignId: null, createdAt: w.clock.now() });
    const c = await w.addCampaign({
      tagListId: 7,
      message1: 'Oi {nome}, cupom {cupom} na loja {loja} {desconhecido}',
      message2: 'Olá {NOME}',
      media: { path: 'company-1/flyer.png', name: 'flyer.png', contentType: 'image/png', size: 1024 },
    });
    await w.app.start.execute({ actor: admin, campaignId: c.id });
    const rows = w.recipients.snapshot().map((r) => ({ number: r.number, name: r.name, state: r.state, reason: r.reason }));
    expect(rows).to.deep.equal([
      { number: '5511988880001', name: 'Ana', state: 'pending', reason: null },
      { number: '5511988880002', name: 'Bruno', state: 'skipped', reason: 'blocked' },
      { number: '5511988880003', name: 'Carla', state: 'skipped', reason: 'invalid-number' },
      { number: 'invalid:12', name: 'Short', state: 'skipped', reason: 'invalid-number' },
      { number: '5511988880004', name: 'Dora', state: 'pending', reason: null },
      { number: '5511988880005', name: 'Eva', state: 'skipped', reason: 'suppressed' },
    ]);
    const ana = w.recipients.snapshot()[0]!;
    expect(ana.variables).to.include({ nome: 'Ana', cupom: 'A10', loja: 'Centro', numero: '5511988880001' });
    expect([1, 2]).to.include(ana.variant);
    expect(ana.body).to.equal(ana.variant === 1 ? 'Oi Ana, cupom A10 na loja Centro {desconhecido}' : 'Olá Ana');
    expect(ana).to.include({ connectionId: CONNECTION, stage: 'message', confirmationBody: null });
    expect(ana.media).to.deep.equal({ path: 'company-1/flyer.png', name: 'flyer.png', contentType: 'image/png', size: 1024 });
    const p = await w.app.progress.execute({ actor: admin, campaignId: c.id });
    expect(p.progress).to.include({ total: 6, pending: 2, skipped: 4 });
    expect(p.progress.skippedByReason).to.deep.equal({ blocked: 1, 'invalid-number': 2, suppressed: 1 });
    const report = await w.app.report.execute({ actor: admin, campaignId: c.id, state: 'skipped' });
    expect(report).to.include({ count: 4, hasMore: false });
  });

  it('picks variants at random among the non-empty ones, deterministically for a seed', async () => {
    const variantsOf = async (seed: number) => {
      const w = campaignWorld(undefined, seed);
      w.addList(
        1,
        Array.from({ length: 40 }, (_, i) => ({ number: `55119${String(70_000_000 + i)}` })),
      );
      const c = await w.addCampaign({ message1: 'a', message3: 'c', message5: 'e' });
      await w.app.start.execute({ actor: admin, campaignId: c.id });
      return w.recipients.snapshot().map((r) => r.variant);
    };
    const first = await variantsOf(3);
    expect(await variantsOf(3)).to.deep.equal(first);
    expect(new Set(first)).to.deep.equal(new Set([1, 3, 5]));
  });
});
