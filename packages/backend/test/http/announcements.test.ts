import { expect } from 'chai';
import { openNamespace, type Frame } from '../support/namespace-client.js';
import { openSocketIo } from '../support/socket-io-client.js';
import { asSuper, client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);
const EVENT = 'company-announcement';

function upload(content: Buffer, name = 'aviso.png', type = 'image/png', field = 'file') {
  const form = new FormData();
  // The modal sends this field beside the file.
  form.append('typeArch', 'announcements');
  form.append(field, new Blob([content], { type }), name);
  return form;
}

/** The id a frame is about. */
const idOf = (f: Frame) => (f.data.action === 'delete' ? Number(f.data.id) : f.data.record?.id);

describe('HTTP: announcements', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  /** The platform's super user; companies A and B with their admins; an operator of A; an admin of the platform's company who is not super. */
  async function world() {
    const root = await asSuper(b);
    const a = await newCompanyWithAdmin(b);
    const beta = await newCompanyWithAdmin(b);
    const op = await a.api.post('/users', { name: 'Ana', email: `ana-${a.company.id}@a.test`, password: 'operator-pass-1', profile: 'user' });
    expect(op.status, JSON.stringify(op.body)).to.equal(201);
    const ana = await login(b.url, `ana-${a.company.id}@a.test`, 'operator-pass-1');
    const staff = await root.api.post('/users', { name: 'Carla', email: `carla-${a.company.id}@platform.test`, password: 'admin-pass-123', profile: 'admin' });
    expect(staff.status, JSON.stringify(staff.body)).to.equal(201);
    const carla = await login(b.url, `carla-${a.company.id}@platform.test`, 'admin-pass-123');
    return {
      root,
      a,
      beta,
      platformId: root.user.companyId as number,
      ana: { ...ana, api: client(b.url, ana.token) },
      carla: { ...carla, api: client(b.url, carla.token) },
    };
  }

  it('lets the super user write, list, edit and delete as the Announcements page and AnnouncementModal do; anyone else gets 403', async () => {
    const { root, a, platformId } = await world();
    const created = await root.api.post('/announcements', { title: 'Manutenção', text: 'Domingo, das 2h às 4h.', priority: 3, status: true });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.deep.include({
      companyId: platformId,
      priority: 3,
      title: 'Manutenção',
      text: 'Domingo, das 2h às 4h.',
      status: true,
      mediaPath: null,
      mediaName: null,
      targetCompanyIds: null,
      startsAt: null,
      endsAt: null,
    });
    const id = created.body.id as number;
    for (let i = 0; i < 20; i++)
      expect(
        (await root.api.post('/announcements', { title: `Lote ${String(i).padStart(2, '0')}`, text: '.', priority: 3, status: i % 2 === 0 })).status,
      ).to.equal(200);
    const first = await root.api.get('/announcements/?searchParam=&pageNumber=1');
    expect(first.body.records).to.have.length(20);
    expect(first.body).to.include({ count: 21, hasMore: true });
    expect((await root.api.get('/announcements?pageNumber=2')).body.records).to.have.length(1);
    expect((await root.api.get('/announcements?searchParam=manutencao')).body).to.deep.equal({ records: [created.body], count: 1, hasMore: false });
    expect((await root.api.get('/announcements?status=false')).body.count).to.equal(10);
    // The modal loads it, then sends the whole answer back with its edits.
    const shown = await root.api.get(`/announcements/${id}`);
    expect(shown.body).to.deep.equal(created.body);
    const edited = await root.api.put(`/announcements/${id}`, { ...shown.body, title: 'Manutenção adiada', priority: 1, status: false });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.deep.include({ title: 'Manutenção adiada', text: 'Domingo, das 2h às 4h.', priority: 1, status: false, companyId: platformId });
    const listed = await root.api.get('/announcements/list');
    expect(listed.body).to.have.length(21);
    expect(listed.body[0]).to.deep.include({ id, title: 'Manutenção adiada', company: { id: platformId, name: listed.body[0].company.name } });

    for (const [method, path, body] of [
      ['POST', '/announcements', { title: 'Meu aviso' }],
      ['PUT', `/announcements/${id}`, { title: 'X' }],
      ['DELETE', `/announcements/${id}`, undefined],
      ['POST', `/announcements/${id}/media-upload`, upload(PNG)],
      ['DELETE', `/announcements/${id}/media-upload`, undefined],
    ] as const) {
      const res = await a.api.call(method, path, body);
      expect(res.status, `${method} ${path}`).to.equal(403);
      expect(res.body).to.deep.equal({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await root.api.get(`/announcements/${id}`)).body.title).to.equal('Manutenção adiada');

    const deleted = await root.api.delete(`/announcements/${id}`);
    expect(deleted.body).to.deep.equal({ message: 'Announcement deleted' });
    expect((await root.api.get(`/announcements/${id}`)).body).to.deep.equal({ error: 'ERR_NO_ANNOUNCEMENT_FOUND' });
    expect((await root.api.delete(`/announcements/${id}`)).status).to.equal(404);
  });

  it('answers bad input with a 4xx and an error code, never a 500', async () => {
    const { root } = await world();
    const id = (await root.api.post('/announcements', { title: 'Base' })).body.id as number;
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', '/announcements', {}, 422, 'ERR_ANNOUNCEMENT_INVALID_TITLE'],
      ['POST', '/announcements', { title: null }, 422, 'ERR_ANNOUNCEMENT_INVALID_TITLE'],
      ['POST', '/announcements', { title: '   ' }, 422, 'ERR_ANNOUNCEMENT_INVALID_TITLE'],
      ['POST', '/announcements', { title: 7 }, 422, 'ERR_VALIDATION'],
      ['POST', '/announcements', { title: 'T', text: 'x'.repeat(10_001) }, 422, 'ERR_ANNOUNCEMENT_TEXT_TOO_LONG'],
      ['POST', '/announcements', { title: 'T', priority: 5 }, 422, 'ERR_ANNOUNCEMENT_INVALID_PRIORITY'],
      ['POST', '/announcements', { title: 'T', priority: 'alta' }, 422, 'ERR_VALIDATION'],
      ['POST', '/announcements', { title: 'T', status: 'maybe' }, 422, 'ERR_VALIDATION'],
      ['POST', '/announcements', { title: 'T', targetCompanyIds: [] }, 422, 'ERR_ANNOUNCEMENT_INVALID_TARGET'],
      ['POST', '/announcements', { title: 'T', targetCompanyIds: ['abc'] }, 422, 'ERR_VALIDATION'],
      ['POST', '/announcements', { title: 'T', targetCompanyIds: [999_999] }, 404, 'ERR_NO_COMPANY_FOUND'],
      ['POST', '/announcements', { title: 'T', targetCompanyIds: 3 }, 422, 'ERR_VALIDATION'],
      ['POST', '/announcements', { title: 'T', startsAt: 'amanhã' }, 422, 'ERR_ANNOUNCEMENT_INVALID_WINDOW'],
      ['POST', '/announcements', { title: 'T', startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }, 422, 'ERR_ANNOUNCEMENT_INVALID_WINDOW'],
      ['POST', '/announcements', [1, 2], 422, 'ERR_VALIDATION'],
      ['PUT', `/announcements/${id}`, { priority: 0 }, 422, 'ERR_ANNOUNCEMENT_INVALID_PRIORITY'],
      ['PUT', '/announcements/999999', { title: 'Nada' }, 404, 'ERR_NO_ANNOUNCEMENT_FOUND'],
      ['PUT', '/announcements/abc', { title: 'Nada' }, 422, 'ERR_VALIDATION'],
      ['GET', '/announcements/999999', undefined, 404, 'ERR_NO_ANNOUNCEMENT_FOUND'],
      ['GET', '/announcements?companyId=abc', undefined, 422, 'ERR_VALIDATION'],
      ['GET', '/announcements/list?companyId=-1', undefined, 422, 'ERR_VALIDATION'],
      [
        'POST',
        `/announcements/${id}/media-upload`,
        upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'x.png'),
        422,
        'ERR_FILE_TYPE_NOT_ALLOWED',
      ],
      ['POST', `/announcements/${id}/media-upload`, upload(Buffer.from('%PDF'), 'x.pdf', 'application/pdf', 'other'), 422, 'ERR_UNEXPECTED_FILE_FIELD'],
      ['POST', '/announcements/999999/media-upload', upload(PNG), 404, 'ERR_NO_ANNOUNCEMENT_FOUND'],
      ['POST', `/announcements/${id}/media-upload`, upload(Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)])), 413, 'ERR_FILE_TOO_LARGE'],
      ['DELETE', '/announcements/999999/media-upload', undefined, 404, 'ERR_NO_ANNOUNCEMENT_FOUND'],
    ];
    for (const [method, path, body, status, code] of cases) {
      const res = await root.api.call(method, path, body);
      expect({ status: res.status, error: res.body?.error }, `${method} ${path} ${JSON.stringify(body)?.slice(0, 80)}`).to.deep.equal({ status, error: code });
    }
    const empty = new FormData();
    empty.append('typeArch', 'announcements');
    expect((await root.api.post(`/announcements/${id}/media-upload`, empty)).body).to.deep.equal({ error: 'ERR_NO_FILE' });
    expect((await root.api.get(`/announcements/${id}`)).body).to.include({ title: 'Base', mediaPath: null });
  });

  it('shows each company what is aimed at it; a user of a company not targeted never sees it and gets no frame of it', async () => {
    const w = await world();
    const onA = await openNamespace(b.url, w.a.company.id, w.ana.token);
    const onB = await openNamespace(b.url, w.beta.company.id, w.beta.token);
    const carla = await openNamespace(b.url, w.platformId, w.carla.token);
    const root = await openNamespace(b.url, w.platformId, w.root.token);
    try {
      const onlyA = (await w.root.api.post('/announcements', { title: 'Só para A', text: 'Novidade', priority: 2, targetCompanyIds: [w.a.company.id] })).body;
      // A later frame every company receives: once B has it, B had everything published before it.
      const everyone = (await w.root.api.post('/announcements', { title: 'Para todos', text: 'Olá', priority: 3 })).body;
      const last = await onB.waitFor((f) => f.event === EVENT && idOf(f) === everyone.id, 10_000);
      expect(last.data).to.deep.equal({ action: 'create', record: everyone });
      expect(onB.frames.filter((f) => idOf(f) === onlyA.id)).to.deep.equal([]);
      await carla.waitFor((f) => f.event === EVENT && idOf(f) === everyone.id, 10_000);
      expect(
        carla.frames.filter((f) => idOf(f) === onlyA.id),
        'the platform company is not targeted and Carla is no super user',
      ).to.deep.equal([]);
      const seenByA = await onA.waitFor((f) => f.event === EVENT && idOf(f) === onlyA.id, 10_000);
      expect(seenByA.data).to.deep.equal({ action: 'create', record: { ...onlyA, targetCompanyIds: [w.a.company.id] } });
      // The super user follows every announcement, whatever it targets.
      expect((await root.waitFor((f) => f.event === EVENT && idOf(f) === onlyA.id, 10_000)).data).to.deep.equal({ action: 'create', record: onlyA });

      const titles = async (api: ReturnType<typeof client>) =>
        ((await api.get('/announcements/?searchParam=&pageNumber=1')).body.records as Array<{ title: string }>).map((r) => r.title);
      expect(await titles(w.ana.api)).to.deep.equal(['Só para A', 'Para todos']);
      expect(await titles(w.beta.api)).to.deep.equal(['Para todos']);
      expect((await w.beta.api.get(`/announcements/${onlyA.id}`)).body).to.deep.equal({ error: 'ERR_NO_ANNOUNCEMENT_FOUND' });
      expect((await w.beta.api.get('/announcements/list')).body.map((r: { id: number }) => r.id)).to.deep.equal([everyone.id]);
      expect((await w.ana.api.get(`/announcements/${onlyA.id}`)).body.targetCompanyIds).to.deep.equal([w.a.company.id]);

      // Aimed at B instead: A's users drop it, B's get it.
      const moved = await w.root.api.put(`/announcements/${onlyA.id}`, { targetCompanyIds: [w.beta.company.id] });
      expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
      expect((await onA.waitFor((f) => idOf(f) === onlyA.id && f.data.action === 'delete', 10_000)).data).to.deep.equal({ action: 'delete', id: onlyA.id });
      expect((await onB.waitFor((f) => idOf(f) === onlyA.id, 10_000)).data.action).to.equal('update');
      expect(await titles(w.ana.api)).to.deep.equal(['Para todos']);
      expect(await titles(w.beta.api)).to.deep.equal(['Só para A', 'Para todos']);
      // Deactivated: B drops it; the super user's list keeps it.
      await w.root.api.put(`/announcements/${onlyA.id}`, { status: false });
      await onB.waitFor((f) => idOf(f) === onlyA.id && f.data.action === 'delete', 10_000);
      await root.waitFor((f) => idOf(f) === onlyA.id && f.data.record?.status === false, 10_000);
      expect(await titles(w.beta.api)).to.deep.equal(['Para todos']);
      expect(await titles(w.root.api)).to.deep.equal(['Só para A', 'Para todos']);
    } finally {
      for (const s of [onA, onB, carla, root]) s.close();
    }
  });

  it('emits `company-announcement` over socket.io as the bell listens for it, and nothing of it to a company not targeted', async () => {
    const w = await world();
    const ana = openSocketIo(b.url, w.a.company.id, w.ana.token);
    const beta = openSocketIo(b.url, w.beta.company.id, w.beta.token);
    try {
      await Promise.all([ana.connected, beta.connected]);
      const onlyA = (await w.root.api.post('/announcements', { title: 'Só para A', priority: 1, targetCompanyIds: [w.a.company.id] })).body;
      const created = await ana.waitFor((e) => e.event === EVENT && e.data.record?.id === onlyA.id);
      expect(created.data).to.include({ action: 'create' });
      expect(created.data.record).to.include({ title: 'Só para A', priority: 1 });
      await w.root.api.delete(`/announcements/${onlyA.id}`);
      expect((await ana.waitFor((e) => e.event === EVENT && e.data.action === 'delete')).data).to.deep.equal({ action: 'delete', id: onlyA.id });
      const later = (await w.root.api.post('/announcements', { title: 'Para todos' })).body;
      await beta.waitFor((e) => e.event === EVENT && e.data.record?.id === later.id);
      expect(beta.events.filter((e) => e.event === EVENT && (e.data.record?.id ?? e.data.id) === onlyA.id)).to.deep.equal([]);
    } finally {
      ana.close();
      beta.close();
    }
  });

  it('attaches an image or a PDF (recognised by its bytes), serves it publicly, replaces and removes it with its file', async () => {
    const w = await world();
    const id = (await w.root.api.post('/announcements', { title: 'Com imagem', targetCompanyIds: [w.a.company.id] })).body.id as number;
    const served = (mediaPath: string) => client(b.url).get(new URL(mediaPath).pathname);
    const image = await w.root.api.post(`/announcements/${id}/media-upload`, upload(PNG, 'aviso final.png', 'text/plain'));
    expect(image.status, JSON.stringify(image.body)).to.equal(200);
    expect(image.body).to.include({ mensagem: 'Mensagem enviada', mediaName: 'aviso final.png', mediaType: 'image/png', id });
    expect(new URL(image.body.mediaPath).pathname).to.match(/^\/public\/announcements\/[0-9a-f-]{36}-aviso_final\.png$/);
    const file = await served(image.body.mediaPath);
    expect(file.status).to.equal(200);
    expect(file.headers.get('content-type')).to.equal('image/png');
    expect((await w.ana.api.get(`/announcements/${id}`)).body.mediaPath).to.equal(image.body.mediaPath);
    const pdf = await w.root.api.post(`/announcements/${id}/media-upload`, upload(Buffer.from('%PDF-1.7 manual'), 'manual.pdf', 'application/pdf'));
    expect(pdf.body).to.include({ mediaName: 'manual.pdf', mediaType: 'application/pdf' });
    expect((await served(image.body.mediaPath)).status).to.equal(404);
    expect((await served(pdf.body.mediaPath)).headers.get('content-type')).to.equal('application/pdf');
    const removed = await w.root.api.delete(`/announcements/${id}/media-upload`);
    expect(removed.body).to.include({ mensagem: 'Arquivo excluído', mediaPath: null, mediaName: null, mediaType: null });
    expect((await served(pdf.body.mediaPath)).status).to.equal(404);
    // Deleting the announcement takes its file along.
    const again = await w.root.api.post(`/announcements/${id}/media-upload`, upload(PNG));
    await w.root.api.delete(`/announcements/${id}`);
    expect((await served(again.body.mediaPath)).status).to.equal(404);
  });

  it('tells the users when the window opens and when it closes, without a write', async () => {
    const w = await world();
    const onA = await openNamespace(b.url, w.a.company.id, w.ana.token);
    try {
      const startsAt = new Date(Date.now() + 1500);
      const endsAt = new Date(startsAt.getTime() + 1500);
      const a = (await w.root.api.post('/announcements', { title: 'Em breve', startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() })).body;
      expect((await w.ana.api.get('/announcements')).body.records).to.deep.equal([]);
      const opened = await onA.waitFor((f) => f.event === EVENT && idOf(f) === a.id, 15_000);
      expect(opened.data).to.deep.equal({ action: 'update', record: a });
      expect(Date.now()).to.be.at.least(startsAt.getTime());
      expect((await w.ana.api.get('/announcements')).body.records.map((r: { id: number }) => r.id)).to.deep.equal([a.id]);
      const closed = await onA.waitFor((f) => f.event === EVENT && idOf(f) === a.id && f.data.action === 'delete', 15_000);
      expect(closed.data).to.deep.equal({ action: 'delete', id: a.id });
      expect((await w.ana.api.get('/announcements')).body.records).to.deep.equal([]);
      // Only these two: nothing when it was written (not shown yet).
      expect(onA.frames.filter((f) => idOf(f) === a.id).map((f) => f.data.action)).to.deep.equal(['update', 'delete']);
    } finally {
      onA.close();
    }
  });
});
