import { expect } from 'chai';
import { tagFixture } from '../contracts/tags-contract.js';
import { code, scheduleWorld } from './schedule-world.js';

describe('Scheduled messages (bulk): use cases on a fake clock', () => {
  it('sends to the chosen contacts and every contact of the chosen tags, each once, one every gap, signed and in an open ticket', async () => {
    const w = await scheduleWorld();
    const [ana, bruno, caio, dora] = [await w.contact(), await w.contact(), await w.contact(), await w.contact(w.acme.id, { blocked: true })];
    const tag = await w.ports.tags.add(tagFixture(w.acme.id, 'VIP'));
    for (const c of [bruno!, caio!, dora!]) await w.ports.tags.setContactTags(w.acme.id, c.id, [tag.id]);
    const created = await w.app.schedules.createScheduledMessage.execute({
      actor: w.ana,
      message: {
        name: 'Promoção',
        body: 'Oi {{name}}',
        sendAt: '2026-03-05 09:00:00',
        contactIds: [ana!.id, bruno!.id],
        tagIds: [tag.id],
        sign: true,
        signUserId: w.bia.userId,
        openTicket: true,
      },
    });
    expect(created).to.include({
      nome: 'Promoção',
      mensagem: 'Oi {{name}}',
      data_mensagem_programada: '2026-03-05T14:00:00.000Z',
      id_conexao: null,
      status: 'PENDENTE',
    });
    expect(created).to.deep.include({
      contatos: [ana!.id, bruno!.id],
      tags: [tag.id],
      usuario_envio: w.bia.userId,
      criar_ticket: true,
      mostrar_usuario_mensagem: true,
    });

    w.clock.to('2026-03-05T14:00:00.000Z');
    await w.runDue();
    expect(w.sent().map((m) => m.contactId)).to.deep.equal([ana!.id]);
    w.clock.to('2026-03-05T14:00:04.000Z');
    await w.runDue();
    expect(w.sent()).to.have.length(1);
    w.clock.to('2026-03-05T14:00:05.000Z');
    await w.runDue();
    // The last one was deleted meanwhile: its delivery fails, the others are sent.
    await w.ports.contacts.remove(w.acme.id, caio!.id);
    w.clock.to('2026-03-05T14:00:10.000Z');
    await w.runDue();
    expect(w.sent().map((m) => [m.contactId, m.body])).to.deep.equal([
      [ana!.id, `*Bia:*\nOi ${ana!.name}`],
      [bruno!.id, `*Bia:*\nOi ${bruno!.name}`],
    ]);
    const ticket = (await w.ports.tickets.findById(w.acme.id, w.sent()[0]!.ticketId))!;
    expect(ticket).to.include({ status: 'open', userId: w.bia.userId });
    const shown = await w.app.schedules.showScheduledMessage.execute({ actor: w.ana, scheduleId: created.id });
    expect(shown).to.include({ status: 'ENVIADA', contadorEnvio: 1 });
    expect(shown.occurrences[0]).to.include({ status: 'sent', recipients: 3, sent: 2, failed: 1 });
    expect(await w.sendJobs()).to.deep.equal([]);
  });

  it('checks its name, recipients and ids, and lists by name', async () => {
    const w = await scheduleWorld();
    const contact = await w.contact();
    const theirs = await w.contact(w.other.id);
    const create = (fields: Record<string, unknown>) =>
      w.app.schedules.createScheduledMessage.execute({
        actor: w.ana,
        message: { name: 'Aviso', body: 'Oi', sendAt: '2026-03-05 09:00', contactIds: [contact.id], ...fields },
      });
    expect(await code(create({ name: ' ' }))).to.equal('ERR_SCHEDULE_INVALID_NAME');
    expect(await code(create({ contactIds: [] }))).to.equal('ERR_SCHEDULE_NO_RECIPIENTS');
    expect(await code(create({ contactIds: [theirs.id] }))).to.equal('ERR_NO_CONTACT_FOUND');
    expect(await code(create({ tagIds: [12345] }))).to.equal('ERR_NO_TAG_FOUND');
    expect(await code(create({ signUserId: w.otherAdmin.userId, sign: true }))).to.equal('ERR_NO_USER_FOUND');
    const kept = await create({ name: 'Aviso de férias' });
    await create({ name: 'Outro' });
    const found = await w.app.schedules.listScheduledMessages.execute({ actor: w.bia, searchParam: 'ferias' });
    expect(found.schedules.map((s) => s.id)).to.deep.equal([kept.id]);
    expect(await code(w.app.schedules.showSchedule.execute({ actor: w.ana, scheduleId: kept.id }))).to.equal('ERR_NO_SCHEDULE_FOUND');
    expect(await code(w.app.schedules.updateScheduledMessage.execute({ actor: w.bia, scheduleId: kept.id, message: { name: 'Meu' } }))).to.equal(
      'ERR_NO_PERMISSION',
    );
    expect((await w.app.schedules.updateScheduledMessage.execute({ actor: w.admin, scheduleId: kept.id, message: { name: 'Admin' } })).nome).to.equal('Admin');
    await w.app.schedules.deleteScheduledMessage.execute({ actor: w.ana, scheduleId: kept.id });
    expect((await w.app.schedules.listScheduledMessages.execute({ actor: w.ana })).count).to.equal(1);
  });
});
