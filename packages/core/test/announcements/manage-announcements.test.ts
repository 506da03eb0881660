import { expect } from 'chai';
import { createApplication, type Actor, type User } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { ANNOUNCEMENT_WINDOW_JOB } from '../../src/announcements/announcement-window.js';
import type { AnnouncementInput } from '../../src/announcements/manage-announcements.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
const file = (data: Buffer | string, filename = 'aviso.png', contentType = 'image/png') => ({ filename, contentType, data: Buffer.from(data) });
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

/**
 * The platform (its super user), Acme (an admin and an operator), Beta (an admin) and an inactive
 * company, on in-memory ports with the announcements' window job known to the job queue.
 */
async function world() {
  const ports = createInMemoryPorts();
  const app = createApplication(ports);
  ports.jobDefinitions.push(...app.announcements.jobs());
  const plan = await ports.plans.add(planFixture('P'));
  const company = async (name: string, status = true) => (await ports.companies.add(companyFixture(plan.id, name, { status }))).id;
  const platform = await company('Platform');
  const acme = await company('Acme');
  const beta = await company('Beta');
  const dormant = await company('Dormant', false);
  const actor = async (companyId: number, email: string, profile: User['profile']): Promise<Actor> => {
    const u = await ports.users.add(userFixture(companyId, email, { profile }));
    return { userId: u.id, companyId, profile };
  };
  const root = await actor(platform, 'root@platform.test', 'super');
  const acmeAdmin = await actor(acme, 'admin@acme.test', 'admin');
  const ana = await actor(acme, 'ana@acme.test', 'user');
  const betaAdmin = await actor(beta, 'admin@beta.test', 'admin');
  const create = (announcement: AnnouncementInput) => app.announcements.createAnnouncement.execute({ actor: root, announcement });
  const update = (announcementId: number, announcement: AnnouncementInput) =>
    app.announcements.updateAnnouncement.execute({ actor: root, announcementId, announcement });
  /** The frames published since the last call: `<companyId> <readers> <action> <id>`. */
  let seen = 0;
  const frames = () => {
    const events = ports.realtime.events.slice(seen);
    seen = ports.realtime.events.length;
    return events.map((e) => {
      if (e.entity !== 'announcement') return `${e.companyId} ${e.entity}`;
      const d = e.data;
      return `${e.companyId} ${e.readers} ${d.action} ${d.action === 'delete' ? d.id : d.record.id}`;
    });
  };
  const records = () => ports.realtime.events.filter((e) => e.entity === 'announcement').map((e) => ({ companyId: e.companyId, data: e.data }));
  const titlesFor = async (reader: Actor) => (await app.announcements.listAnnouncements.execute({ actor: reader })).records.map((a) => a.title);
  return { ports, app, plan, platform, acme, beta, dormant, root, acmeAdmin, ana, betaAdmin, create, update, frames, records, titlesFor };
}

describe('Announcements: super users write, every targeted company reads', () => {
  it('lets only super users write (403 for admins and operators, nothing stored or published)', async () => {
    const w = await world();
    const a = await w.create({ title: 'Manutenção' });
    w.frames();
    for (const actor of [w.acmeAdmin, w.ana]) {
      expect(await code(w.app.announcements.createAnnouncement.execute({ actor, announcement: { title: 'Meu aviso' } }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.announcements.updateAnnouncement.execute({ actor, announcementId: a.id, announcement: { title: 'X' } }))).to.equal(
        'ERR_NO_PERMISSION',
      );
      expect(await code(w.app.announcements.deleteAnnouncement.execute({ actor, announcementId: a.id }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.announcements.setAnnouncementMedia.execute({ actor, announcementId: a.id, file: file(PNG) }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.announcements.removeAnnouncementMedia.execute({ actor, announcementId: a.id }))).to.equal('ERR_NO_PERMISSION');
    }
    expect(await w.ports.announcements.all({})).to.have.length(1);
    expect((await w.ports.announcements.findById(a.id))!.title).to.equal('Manutenção');
    expect(w.frames()).to.deep.equal([]);
    expect(w.ports.blobs.blobs.size).to.equal(0);
  });

  it('creates with the defaults (every company, active, low priority), checks every field and the target companies', async () => {
    const w = await world();
    const created = await w.create({ title: '  Manutenção  ', text: null });
    expect(created).to.deep.include({
      companyId: w.platform,
      priority: 3,
      title: 'Manutenção',
      text: '',
      status: true,
      targetCompanyIds: null,
      startsAt: null,
      endsAt: null,
      mediaPath: null,
      mediaName: null,
      mediaType: null,
    });
    const windowed = await w.create({
      title: 'Janela',
      priority: 1,
      status: false,
      targetCompanyIds: [w.beta, w.acme, w.beta],
      startsAt: '2026-02-01T09:00:00-03:00',
      endsAt: '2026-02-02T12:00:00Z',
    });
    expect(windowed).to.deep.include({
      priority: 1,
      status: false,
      targetCompanyIds: [w.acme, w.beta],
      startsAt: '2026-02-01T12:00:00.000Z',
      endsAt: '2026-02-02T12:00:00.000Z',
    });
    const cases: Array<[AnnouncementInput, string]> = [
      [{}, 'ERR_ANNOUNCEMENT_INVALID_TITLE'],
      [{ title: '   ' }, 'ERR_ANNOUNCEMENT_INVALID_TITLE'],
      [{ title: 'x'.repeat(256) }, 'ERR_ANNOUNCEMENT_INVALID_TITLE'],
      [{ title: 'T', text: 'x'.repeat(10_001) }, 'ERR_ANNOUNCEMENT_TEXT_TOO_LONG'],
      [{ title: 'T', priority: 0 }, 'ERR_ANNOUNCEMENT_INVALID_PRIORITY'],
      [{ title: 'T', priority: 2.5 }, 'ERR_ANNOUNCEMENT_INVALID_PRIORITY'],
      [{ title: 'T', startsAt: 'amanhã' }, 'ERR_ANNOUNCEMENT_INVALID_WINDOW'],
      [{ title: 'T', startsAt: '2026-02-01 09:00:00' }, 'ERR_ANNOUNCEMENT_INVALID_WINDOW'],
      [{ title: 'T', endsAt: '2026-02-30T09:00:00Z' }, 'ERR_ANNOUNCEMENT_INVALID_WINDOW'],
      [{ title: 'T', startsAt: '2026-02-02T00:00:00Z', endsAt: '2026-02-02T00:00:00Z' }, 'ERR_ANNOUNCEMENT_INVALID_WINDOW'],
      [{ title: 'T', targetCompanyIds: [] }, 'ERR_ANNOUNCEMENT_INVALID_TARGET'],
      [{ title: 'T', targetCompanyIds: Array.from({ length: 1001 }, (_, i) => i + 1) }, 'ERR_ANNOUNCEMENT_INVALID_TARGET'],
      [{ title: 'T', targetCompanyIds: [w.acme, 999_999] }, 'ERR_NO_COMPANY_FOUND'],
    ];
    for (const [input, expected] of cases) expect(await code(w.create(input)), JSON.stringify(input).slice(0, 80)).to.equal(expected);
    expect(await code(w.update(windowed.id, { endsAt: '2026-01-01T00:00:00Z' }))).to.equal('ERR_ANNOUNCEMENT_INVALID_WINDOW');
    expect(await code(w.update(987_654, { title: 'Nada' }))).to.equal('ERR_NO_ANNOUNCEMENT_FOUND');
    expect(await w.ports.announcements.all({})).to.have.length(2);
    // Only the fields sent change; null opens an end again.
    const edited = await w.update(windowed.id, { title: 'Janela nova', startsAt: null });
    expect(edited).to.deep.include({
      title: 'Janela nova',
      priority: 1,
      status: false,
      startsAt: null,
      endsAt: '2026-02-02T12:00:00.000Z',
      targetCompanyIds: [w.acme, w.beta],
    });
  });

  it("shows each company's users what is active, aimed at them and in its window, by priority; the super user everything", async () => {
    const w = await world();
    w.ports.clock.advance(0);
    const now = w.ports.clock.now().getTime();
    const iso = (minutes: number) => new Date(now + minutes * 60_000).toISOString();
    await w.create({ title: 'Para todos' });
    await w.create({ title: 'Só Acme', targetCompanyIds: [w.acme], priority: 2 });
    await w.create({ title: 'Só Beta', targetCompanyIds: [w.beta] });
    await w.create({ title: 'Inativo', status: false });
    await w.create({ title: 'Urgente agora', priority: 1, startsAt: iso(-5), endsAt: iso(5) });
    await w.create({ title: 'Mais tarde', startsAt: iso(60) });
    await w.create({ title: 'Acabou', endsAt: iso(-1) });
    expect(await w.titlesFor(w.ana)).to.deep.equal(['Urgente agora', 'Só Acme', 'Para todos']);
    expect(await w.titlesFor(w.acmeAdmin)).to.deep.equal(['Urgente agora', 'Só Acme', 'Para todos']);
    expect(await w.titlesFor(w.betaAdmin)).to.deep.equal(['Urgente agora', 'Só Beta', 'Para todos']);
    expect(await w.titlesFor(w.root)).to.deep.equal(['Urgente agora', 'Só Acme', 'Acabou', 'Mais tarde', 'Inativo', 'Só Beta', 'Para todos']);
    // The super user's filters; another reader's filters are not theirs to use.
    const asRoot = (q: object) => w.app.announcements.listAnnouncements.execute({ actor: w.root, ...q }).then((p) => p.records.map((a) => a.title));
    expect(await asRoot({ status: false })).to.deep.equal(['Inativo']);
    expect(await asRoot({ companyId: w.beta, searchParam: 'só' })).to.deep.equal(['Só Beta']);
    const sneaky = await w.app.announcements.listAnnouncements.execute({ actor: w.ana, status: false, companyId: w.beta });
    expect(sneaky.records.map((a) => a.title)).to.deep.equal(['Urgente agora', 'Só Acme', 'Para todos']);
    // A reader sees the targets as "every company" or "yours", never the other companies named.
    const both = await w.create({ title: 'Acme e Beta', targetCompanyIds: [w.acme, w.beta] });
    expect((await w.app.announcements.showAnnouncement.execute({ actor: w.ana, announcementId: both.id })).targetCompanyIds).to.deep.equal([w.acme]);
    expect((await w.app.announcements.showAnnouncement.execute({ actor: w.root, announcementId: both.id })).targetCompanyIds).to.deep.equal([w.acme, w.beta]);
    const onlyBeta = (await w.ports.announcements.all({ search: 'Só Beta' }))[0]!;
    expect(await code(w.app.announcements.showAnnouncement.execute({ actor: w.ana, announcementId: onlyBeta.id }))).to.equal('ERR_NO_ANNOUNCEMENT_FOUND');
    const inactive = (await w.ports.announcements.all({ status: false }))[0]!;
    expect(await code(w.app.announcements.showAnnouncement.execute({ actor: w.acmeAdmin, announcementId: inactive.id }))).to.equal('ERR_NO_ANNOUNCEMENT_FOUND');
    // The whole list, with the author's company.
    const listed = await w.app.announcements.listAllAnnouncements.execute({ actor: w.ana, companyId: w.beta });
    expect(listed.map((a) => a.title)).to.deep.equal(['Urgente agora', 'Só Acme', 'Acme e Beta', 'Para todos']);
    expect(listed[0]!.company).to.deep.equal({ id: w.platform, name: 'Platform' });
    expect((await w.app.announcements.listAllAnnouncements.execute({ actor: w.root, companyId: w.beta })).map((a) => a.title)).to.deep.equal([
      'Urgente agora',
      'Acme e Beta',
      'Acabou',
      'Mais tarde',
      'Inativo',
      'Só Beta',
      'Para todos',
    ]);
  });

  it("publishes to the targeted companies' users and to the super users' company, to nobody else", async () => {
    const w = await world();
    const a = await w.create({ title: 'Só Acme', targetCompanyIds: [w.acme] });
    expect(w.frames()).to.deep.equal([`${w.acme} company create ${a.id}`, `${w.platform} supers create ${a.id}`]);
    // Aimed at Beta instead: Acme's users drop it, Beta's get it.
    await w.update(a.id, { targetCompanyIds: [w.beta] });
    expect(w.frames()).to.have.members([`${w.beta} company update ${a.id}`, `${w.acme} company delete ${a.id}`, `${w.platform} supers update ${a.id}`]);
    // Deactivated: the users of Beta drop it; the super user's list keeps it.
    await w.update(a.id, { status: false });
    expect(w.frames()).to.deep.equal([`${w.beta} company delete ${a.id}`, `${w.platform} supers update ${a.id}`]);
    // An inactive one changes: only the super user hears of it.
    await w.update(a.id, { title: 'Ainda inativo' });
    expect(w.frames()).to.deep.equal([`${w.platform} supers update ${a.id}`]);
    // For every company: each active company, the platform's super user and users in one frame.
    await w.update(a.id, { status: true, targetCompanyIds: null });
    expect(w.frames()).to.deep.equal([`${w.platform} company update ${a.id}`, `${w.acme} company update ${a.id}`, `${w.beta} company update ${a.id}`]);
    await w.app.announcements.deleteAnnouncement.execute({ actor: w.root, announcementId: a.id });
    expect(w.frames()).to.deep.equal([`${w.platform} company delete ${a.id}`, `${w.acme} company delete ${a.id}`, `${w.beta} company delete ${a.id}`]);
    // The records a company's users receive name only their company among the targets.
    const both = await w.create({ title: 'Acme e Beta', targetCompanyIds: [w.acme, w.beta] });
    const sent = w.records().filter((r) => r.data.action === 'create' && r.data.record.id === both.id);
    expect(sent.map((r) => [r.companyId, r.data.action === 'create' && r.data.record.targetCompanyIds])).to.deep.equal([
      [w.acme, [w.acme]],
      [w.beta, [w.beta]],
      [w.platform, [w.acme, w.beta]],
    ]);
  });

  it('publishes an announcement for every company to each active company, page after page of ids', async () => {
    const w = await world();
    for (let i = 0; i < 520; i++) await w.ports.companies.add(companyFixture(w.plan.id, `Cliente ${i}`));
    const active = (await w.ports.companies.listAll()).filter((c) => c.status).map((c) => c.id);
    expect(active).to.have.length(523);
    const a = await w.create({ title: 'Para todos' });
    const targets = w.frames().map((f) => Number(f.split(' ')[0]));
    expect(targets).to.have.length(523);
    expect([...targets].sort((x, y) => x - y)).to.deep.equal(active);
    expect(targets).to.not.include(w.dormant);
    expect((await w.app.announcements.showAnnouncement.execute({ actor: w.betaAdmin, announcementId: a.id })).title).to.equal('Para todos');
  });

  it('tells users when its window opens and closes (a job at each edge), and re-plans the edges when they change', async () => {
    const w = await world();
    const now = w.ports.clock.now().getTime();
    const iso = (minutes: number) => new Date(now + minutes * 60_000).toISOString();
    const a = await w.create({ title: 'Manutenção', targetCompanyIds: [w.acme], startsAt: iso(10), endsAt: iso(20) });
    // Not shown yet: only the super user hears of it.
    expect(w.frames()).to.deep.equal([`${w.platform} supers create ${a.id}`]);
    const pending = async () => (await w.ports.jobStore.list({ name: ANNOUNCEMENT_WINDOW_JOB })).map((j) => j.runAt.toISOString());
    expect(await pending()).to.deep.equal([iso(10), iso(20)]);
    await w.update(a.id, { startsAt: iso(15) });
    w.frames();
    expect(await pending()).to.have.members([iso(15), iso(20)]);
    const runDue = async () => {
      const lease = new Map([[ANNOUNCEMENT_WINDOW_JOB, 60_000]]);
      for (const job of await w.ports.jobStore.claim({ owner: 'test', limit: 10, leaseMs: lease })) {
        await w.app.announcements.publishAnnouncementWindow.execute({ ...(job.payload as { announcementId: number }), dueAt: job.runAt });
        await w.ports.jobStore.complete(job.lease);
      }
    };
    w.ports.clock.advance(14 * 60_000);
    await runDue();
    expect(w.frames()).to.deep.equal([]);
    expect(await w.titlesFor(w.ana)).to.deep.equal([]);
    w.ports.clock.advance(60_000);
    await runDue();
    expect(w.frames()).to.deep.equal([`${w.acme} company update ${a.id}`]);
    expect(await w.titlesFor(w.ana)).to.deep.equal(['Manutenção']);
    w.ports.clock.advance(5 * 60_000);
    await runDue();
    expect(w.frames()).to.deep.equal([`${w.acme} company delete ${a.id}`]);
    expect(await w.titlesFor(w.ana)).to.deep.equal([]);
    expect(await pending()).to.deep.equal([]);
    // Deactivated or deleted, nothing is left planned.
    const later = await w.create({ title: 'Depois', startsAt: iso(60) });
    expect(await pending()).to.have.length(1);
    await w.update(later.id, { status: false });
    expect(await pending()).to.deep.equal([]);
    await w.update(later.id, { status: true });
    expect(await pending()).to.have.length(1);
    await w.app.announcements.deleteAnnouncement.execute({ actor: w.root, announcementId: later.id });
    expect(await pending()).to.deep.equal([]);
  });

  it('attaches an image or a PDF recognised by its bytes, replaces and removes it with its file', async () => {
    const w = await world();
    const a = await w.create({ title: 'Com imagem' });
    const withImage = await w.app.announcements.setAnnouncementMedia.execute({
      actor: w.root,
      announcementId: a.id,
      file: file(PNG, 'aviso final.png', 'text/plain'),
    });
    expect(withImage).to.deep.include({ mediaName: 'aviso final.png', mediaType: 'image/png' });
    expect(withImage.mediaPath).to.match(/^http:\/\/localhost\/files\/public\/announcements\/[\w-]+-aviso_final\.png$/);
    const firstKey = [...w.ports.blobs.blobs.keys()][0]!;
    expect(w.ports.blobs.blobs.get(firstKey)!.contentType).to.equal('image/png');
    const withPdf = await w.app.announcements.setAnnouncementMedia.execute({
      actor: w.root,
      announcementId: a.id,
      file: file('%PDF-1.7 manual', 'manual.pdf', 'application/pdf'),
    });
    expect(withPdf).to.deep.include({ mediaName: 'manual.pdf', mediaType: 'application/pdf' });
    expect([...w.ports.blobs.blobs.keys()])
      .to.have.length(1)
      .and.not.include(firstKey);
    const refused: Array<[ReturnType<typeof file> | undefined, string]> = [
      [file('<svg xmlns="http://www.w3.org/2000/svg"/>', 'x.png', 'image/png'), 'ERR_FILE_TYPE_NOT_ALLOWED'],
      [file('MZ executable', 'setup.pdf', 'application/pdf'), 'ERR_FILE_TYPE_NOT_ALLOWED'],
      [file(''), 'ERR_NO_FILE'],
      [undefined, 'ERR_NO_FILE'],
      [file(Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)])), 'ERR_FILE_TOO_LARGE'],
    ];
    for (const [upload, expected] of refused) {
      expect(await code(w.app.announcements.setAnnouncementMedia.execute({ actor: w.root, announcementId: a.id, file: upload }))).to.equal(expected);
    }
    expect(await code(w.app.announcements.setAnnouncementMedia.execute({ actor: w.root, announcementId: 987_654, file: file(PNG) }))).to.equal(
      'ERR_NO_ANNOUNCEMENT_FOUND',
    );
    expect((await w.app.announcements.showAnnouncement.execute({ actor: w.ana, announcementId: a.id })).mediaName).to.equal('manual.pdf');
    const removed = await w.app.announcements.removeAnnouncementMedia.execute({ actor: w.root, announcementId: a.id });
    expect(removed).to.deep.include({ mediaPath: null, mediaName: null, mediaType: null });
    expect(w.ports.blobs.blobs.size).to.equal(0);
    expect((await w.app.announcements.removeAnnouncementMedia.execute({ actor: w.root, announcementId: a.id })).mediaPath).to.equal(null);
    await w.app.announcements.setAnnouncementMedia.execute({ actor: w.root, announcementId: a.id, file: file(PNG) });
    await w.app.announcements.deleteAnnouncement.execute({ actor: w.root, announcementId: a.id });
    expect(w.ports.blobs.blobs.size).to.equal(0);
    expect(await code(w.app.announcements.deleteAnnouncement.execute({ actor: w.root, announcementId: a.id }))).to.equal('ERR_NO_ANNOUNCEMENT_FOUND');
  });
});
