import { expect } from 'chai';
import type { BufferedUpload } from '../../src/index.js';
import { code, ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(24, 1)]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n');
const upload = (filename: string, data: Buffer, contentType = 'application/octet-stream'): BufferedUpload => ({ filename, data, contentType });

describe('Company templates', () => {
  let w: TicketWorld;
  beforeEach(async () => {
    w = await ticketWorld();
  });
  const t = () => w.app.companyTemplates;
  const frames = () =>
    w.ports.realtime.events.filter((e) => e.entity === 'companyTemplate').map((e) => ({ action: e.data.action, readers: (e as { readers: unknown }).readers }));

  it('folds the shortcut, keeps it unique per company, and pages what each caller sees by shortcut', async () => {
    const global = await t().createCompanyTemplate.execute({
      actor: w.admin,
      shortcut: ' /Promoção ',
      message: 'Promo de {{date}}',
      global: true,
      category: '  Vendas  ',
    });
    expect(global).to.include({ shortcut: 'promocao', global: true, userId: w.admin.userId, category: 'Vendas', mediaUrl: null });
    const mine = await t().createCompanyTemplate.execute({ actor: w.ana, shortcut: 'meu-oi', message: 'Oi, sou {{userName}}' });
    expect(mine).to.include({ global: false, userId: w.ana.userId, category: null });
    await t().createCompanyTemplate.execute({ actor: w.bia, shortcut: 'bia_1', message: 'da Bia' });
    expect(await code(t().createCompanyTemplate.execute({ actor: w.bia, shortcut: 'PROMOÇÃO', message: 'x' }))).to.equal('ERR_TEMPLATE_SHORTCUT_IN_USE');
    expect(await code(t().createCompanyTemplate.execute({ actor: w.otherAdmin, shortcut: 'promocao', message: 'x' }))).to.equal('resolved');

    const shortcuts = async (actor: typeof w.admin, searchParam?: string) =>
      (await t().listCompanyTemplates.execute({ actor, ...(searchParam ? { searchParam } : {}) })).templates.map((x) => x.shortcut);
    expect(await shortcuts(w.admin)).to.deep.equal(['bia_1', 'meu-oi', 'promocao']);
    expect(await shortcuts(w.ana)).to.deep.equal(['meu-oi', 'promocao']);
    expect(await shortcuts(w.ana, 'USERNAME')).to.deep.equal(['meu-oi']);
    expect(await t().listCompanyTemplates.execute({ actor: w.otherAdmin })).to.include({ count: 1, hasMore: false });
  });

  it('refuses bad fields with their codes', async () => {
    const bad = (fields: { shortcut?: string; message?: string; category?: string | null }) =>
      code(
        t().createCompanyTemplate.execute({
          actor: w.admin,
          shortcut: 'ok',
          message: 'ok',
          ...fields,
        }),
      );
    expect(await bad({ shortcut: '/' })).to.equal('ERR_INVALID_TEMPLATE_SHORTCUT');
    expect(await bad({ shortcut: 'two words' })).to.equal('ERR_INVALID_TEMPLATE_SHORTCUT');
    expect(await bad({ shortcut: '-dash' })).to.equal('ERR_INVALID_TEMPLATE_SHORTCUT');
    expect(await bad({ shortcut: 'x'.repeat(51) })).to.equal('ERR_INVALID_TEMPLATE_SHORTCUT');
    expect(await bad({ message: '   ' })).to.equal('ERR_INVALID_TEMPLATE_MESSAGE');
    expect(await bad({ message: 'x'.repeat(4097) })).to.equal('ERR_INVALID_TEMPLATE_MESSAGE');
    expect(await bad({ category: 'x'.repeat(61) })).to.equal('ERR_INVALID_TEMPLATE_CATEGORY');
    expect(await t().listCompanyTemplates.execute({ actor: w.admin })).to.include({ count: 0 });
  });

  it("lets users change their own personal templates only; global ones are the admins'; another user's is not there", async () => {
    const global = await t().createCompanyTemplate.execute({ actor: w.admin, shortcut: 'g', message: 'global', global: true });
    const anas = await t().createCompanyTemplate.execute({ actor: w.ana, shortcut: 'a', message: 'da Ana' });
    expect(await code(t().createCompanyTemplate.execute({ actor: w.ana, shortcut: 'x', message: 'x', global: true }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(t().updateCompanyTemplate.execute({ actor: w.ana, templateId: global.id, message: 'mudei' }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(t().deleteCompanyTemplate.execute({ actor: w.ana, templateId: global.id }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(t().updateCompanyTemplate.execute({ actor: w.ana, templateId: anas.id, global: true }))).to.equal('ERR_NO_PERMISSION');
    for (const run of [
      () => t().showCompanyTemplate.execute({ actor: w.bia, templateId: anas.id }),
      () => t().updateCompanyTemplate.execute({ actor: w.bia, templateId: anas.id, message: 'x' }),
      () => t().deleteCompanyTemplate.execute({ actor: w.bia, templateId: anas.id }),
      () => t().showCompanyTemplate.execute({ actor: w.otherAdmin, templateId: global.id }),
      () => t().updateCompanyTemplate.execute({ actor: w.otherAdmin, templateId: global.id, message: 'x' }),
    ])
      expect(await code(run())).to.equal('ERR_NO_COMPANY_TEMPLATE_FOUND');
    // Carla sees every ticket, not every template.
    expect(await code(t().showCompanyTemplate.execute({ actor: w.carla, templateId: anas.id }))).to.equal('ERR_NO_COMPANY_TEMPLATE_FOUND');
    expect(await t().updateCompanyTemplate.execute({ actor: w.ana, templateId: anas.id, message: 'da Ana, editado' })).to.include({
      message: 'da Ana, editado',
    });
    expect(await t().updateCompanyTemplate.execute({ actor: w.admin, templateId: anas.id, category: 'Suporte' })).to.include({
      category: 'Suporte',
      userId: w.ana.userId,
    });
    await t().deleteCompanyTemplate.execute({ actor: w.ana, templateId: anas.id });
    expect(await code(t().showCompanyTemplate.execute({ actor: w.ana, templateId: anas.id }))).to.equal('ERR_NO_COMPANY_TEMPLATE_FOUND');
  });

  it("sends frames to the template's readers; made personal, the others are told it is gone first", async () => {
    const g = await t().createCompanyTemplate.execute({ actor: w.admin, shortcut: 'g', message: 'global', global: true });
    const p = await t().createCompanyTemplate.execute({ actor: w.ana, shortcut: 'p', message: 'pessoal' });
    await t().updateCompanyTemplate.execute({ actor: w.admin, templateId: p.id, global: true });
    await t().updateCompanyTemplate.execute({ actor: w.admin, templateId: g.id, global: false });
    await t().deleteCompanyTemplate.execute({ actor: w.admin, templateId: g.id });
    const company = { kind: 'company' };
    expect(frames()).to.deep.equal([
      { action: 'create', readers: company },
      { action: 'create', readers: { kind: 'owner', userId: w.ana.userId } },
      { action: 'update', readers: company },
      { action: 'delete', readers: company },
      { action: 'update', readers: { kind: 'owner', userId: w.admin.userId } },
      { action: 'delete', readers: { kind: 'owner', userId: w.admin.userId } },
    ]);
  });

  it('keeps a file recognised by its bytes, replaces and removes it, and deletes stored files once unused', async () => {
    const blobs = w.ports.blobs;
    const created = await t().createCompanyTemplate.execute({
      actor: w.ana,
      shortcut: 'tabela',
      message: 'Segue',
      media: upload('tabela de preços.pdf', PDF, 'image/png'),
    });
    expect(created).to.include({ mediaName: 'tabela de preços.pdf', mediaType: 'application/pdf', mediaSize: PDF.length });
    const key = w.ports.blobs.keyOfPublicUrl(created.mediaUrl!)!;
    expect(key).to.match(new RegExp(`^public/company-${w.acme.id}/templates/`));
    expect((await blobs.get(key))!.contentType).to.equal('application/pdf');

    const replaced = await t().updateCompanyTemplate.execute({ actor: w.ana, templateId: created.id, media: upload('foto.png', PNG) });
    expect(replaced).to.include({ mediaName: 'foto.png', mediaType: 'image/png' });
    expect(await blobs.get(key)).to.equal(null);
    const kept = await t().updateCompanyTemplate.execute({ actor: w.ana, templateId: created.id, message: 'Segue a foto' });
    expect(kept.mediaUrl).to.equal(replaced.mediaUrl);
    const removed = await t().updateCompanyTemplate.execute({ actor: w.ana, templateId: created.id, removeMedia: true });
    expect(removed).to.include({ mediaUrl: null, mediaName: null, mediaType: null, mediaSize: null });
    expect(await blobs.usage(`public/company-${w.acme.id}/templates/`)).to.equal(0);

    expect(
      await code(
        t().createCompanyTemplate.execute({ actor: w.ana, shortcut: 'html', message: 'x', media: upload('x.png', Buffer.from('<html></html>'), 'image/png') }),
      ),
    ).to.equal('ERR_FILE_TYPE_NOT_ALLOWED');
    expect(await code(t().createCompanyTemplate.execute({ actor: w.ana, shortcut: 'empty', message: 'x', media: upload('x.pdf', Buffer.alloc(0)) }))).to.equal(
      'ERR_NO_FILE',
    );
    // A refused write leaves no file behind.
    expect(await code(t().createCompanyTemplate.execute({ actor: w.ana, shortcut: 'tabela', message: 'x', media: upload('y.pdf', PDF) }))).to.equal(
      'ERR_TEMPLATE_SHORTCUT_IN_USE',
    );
    await t().updateCompanyTemplate.execute({ actor: w.ana, templateId: created.id, media: upload('z.pdf', PDF) });
    expect(await blobs.usage(`public/company-${w.acme.id}/templates/`)).to.equal(PDF.length);
    await t().deleteCompanyTemplate.execute({ actor: w.ana, templateId: created.id });
    expect(await blobs.usage(`public/company-${w.acme.id}/templates/`)).to.equal(0);
  });

  it("renders its variables for a ticket the caller may read, on the company's clock", async () => {
    const contact = await w.contact(w.acme.id, { name: 'Carla Dias' });
    const { ticket } = await w.ports.tickets.getOrCreateActive({
      uuid: 'u-1',
      companyId: w.acme.id,
      contactId: contact.id,
      connectionId: w.connection.id,
      status: 'open',
      userId: w.ana.userId,
      queueId: w.sales.id,
      unreadMessages: 0,
      lastMessage: '',
      isGroup: false,
      greetedAt: null,
      closedAt: null,
      createdAt: w.ports.clock.now(),
      updatedAt: w.ports.clock.now(),
    });
    const tpl = await t().createCompanyTemplate.execute({
      actor: w.admin,
      shortcut: 'ola',
      message: '{{ms}}, {{firstName}}! Sou {{userName}} ({{queue}}, {{connection}}, {{name_company}}) #{{ticket_id}} {{outra}}',
      global: true,
    });
    const shown = await t().showCompanyTemplate.execute({ actor: w.ana, templateId: tpl.id, ticketId: ticket.id });
    // The clock reads 12:00 UTC, 09:00 in São Paulo (the default `timezone`): good morning.
    expect(shown.rendered).to.equal(`Bom dia, Carla! Sou Ana (Sales, Main, Acme) #${ticket.id} {{outra}}`);
    await w.ports.settings.put(w.acme.id, 'timezone', 'Asia/Tokyo');
    expect((await t().showCompanyTemplate.execute({ actor: w.ana, templateId: tpl.id, ticketId: ticket.id })).rendered).to.match(/^Boa noite, Carla!/);
    expect(shown.message).to.equal(tpl.message);
    expect((await t().showCompanyTemplate.execute({ actor: w.ana, templateId: tpl.id })).rendered).to.equal(undefined);
    // Bia sees neither Ana's ticket nor another company's.
    expect(await code(t().showCompanyTemplate.execute({ actor: w.bia, templateId: tpl.id, ticketId: ticket.id }))).to.equal('ERR_NO_PERMISSION');
    const theirs = await w.ticket({}, w.otherConnection);
    expect(await code(t().showCompanyTemplate.execute({ actor: w.ana, templateId: tpl.id, ticketId: theirs.id }))).to.equal('ERR_NO_TICKET_FOUND');
  });
});
