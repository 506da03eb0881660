import { expect } from 'chai';
import { startFakeSpeechProvider, type FakeSpeechProvider } from '@servicedesk/core/contracts/fake-speech-provider';
import { openNamespace } from '../support/namespace-client.js';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const KEY = 'sk-proj-transcription-test-key-0001';

/** A voice note as the client records it, `size` bytes. */
function voiceNote(size = 1_000, name = 'audio.ogg') {
  const form = new FormData();
  form.append('body', '');
  form.append('medias', new Blob([Buffer.alloc(size, 7)], { type: 'audio/ogg; codecs=opus' }), name);
  return form;
}

describe('HTTP: transcription and transcription credentials', () => {
  let b: TestBackend;
  let fake: FakeSpeechProvider;
  before(async () => {
    fake = await startFakeSpeechProvider({ keys: [KEY] });
    b = await startTestBackend({
      ALLOW_PRIVATE_URLS: 'true',
      TRANSCRIPTION_TIMEOUT_MS: '1000',
      TRANSCRIPTION_INLINE_MAX_BYTES: '5000',
      OUTBOX_RELAY_INTERVAL_MS: '100',
    });
  });
  after(async () => {
    await b.close();
    await fake.close();
  });
  beforeEach(async () => {
    await b.reset();
    fake.requests.length = 0;
    fake.mode = 'ok';
    fake.transcript = (file, fields) => `ouvi ${file.filename} (${file.data.length} bytes, ${fields.language ?? 'auto'})`;
  });

  /** The desk, its admin's credential on the fake, and a ticket of Ana's with one voice note of `size` bytes. */
  async function deskWithVoice(size = 1_000) {
    const d = await sandboxDesk(b);
    const ticket = await d.inbound('5511977770001', 'Oi, vou mandar um áudio');
    const accepted = await d.ana.api.put(`/tickets/${ticket.id}`, { status: 'open' });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    const sent = await d.ana.api.post(`/messages/${ticket.id}`, voiceNote(size));
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    return { d, ticket, voice: sent.body.messages[0] as { id: string; mediaType: string } };
  }

  const credential = (api: { post: (url: string, body?: unknown) => Promise<{ status: number; body: any }> }, fields: Record<string, unknown> = {}) =>
    api.post('/transcription-credentials', { name: 'Whisper', provider: 'openai-compatible', baseUrl: fake.baseUrl, apiKey: KEY, language: 'pt', ...fields });

  it('manages credentials: the key is write-only and stored sealed, a test call before saving, one default, admins only', async () => {
    const d = await sandboxDesk(b);
    const created = await credential(d.admin, { test: true });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.deep.include({
      name: 'Whisper',
      provider: 'openai-compatible',
      baseUrl: fake.baseUrl,
      model: 'whisper-1',
      language: 'pt',
      isDefault: true,
      hasApiKey: true,
      apiKeyLast4: '0001',
    });
    expect(created.body.test).to.deep.include({ ok: true, text: 'ouvi test.wav (16044 bytes, pt)' });
    expect(fake.requests[0]!.authorization).to.equal(`Bearer ${KEY}`);
    const rows = await b.infra.db.orm.em
      .fork()
      .getConnection()
      .execute<Array<{ api_key_sealed: string }>>('select api_key_sealed from transcription_credentials');
    expect(rows).to.have.length(1);
    expect(rows[0]!.api_key_sealed).to.match(/^v1\./).and.not.include(KEY);

    // A key the service refuses: the test fails, nothing is saved.
    const refused = await credential(d.admin, { name: 'Revoked', apiKey: 'sk-revoked-000000000000', test: true });
    expect(refused.status).to.equal(422);
    expect(refused.body).to.deep.equal({ error: 'ERR_TRANSCRIPTION_PROVIDER_REFUSED' });
    const second = await d.admin.post('/transcription-credentials', { name: 'OpenAI', apiKey: 'sk-openai-99999999999999' });
    expect(second.body).to.deep.include({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', isDefault: false });
    const list = await d.admin.get('/transcription-credentials');
    expect(list.body.map((c: { name: string }) => c.name)).to.deep.equal(['Whisper', 'OpenAI']);
    expect(JSON.stringify(list.body)).to.not.include(KEY).and.not.include('sk-openai');

    expect((await d.ana.api.get('/transcription-credentials')).body).to.deep.equal({ error: 'ERR_NO_PERMISSION' });
    expect((await d.ana.api.post('/transcription-credentials', { name: 'Mine', apiKey: 'sk-1234' })).status).to.equal(403);
    expect((await d.ana.api.get('/transcription-credentials/default')).body.id).to.equal(created.body.id);

    const setDefault = await d.admin.put('/transcription-credentials/default', { id: second.body.id });
    expect(setDefault.status, JSON.stringify(setDefault.body)).to.equal(200);
    expect((await d.admin.get('/transcription-credentials/default')).body.name).to.equal('OpenAI');
    expect((await d.admin.get('/transcription-credentials')).body.filter((c: { isDefault: boolean }) => c.isDefault)).to.have.length(1);
    const deleteDefault = await d.admin.delete(`/transcription-credentials/${second.body.id}`);
    expect(deleteDefault.status).to.equal(409);
    expect(deleteDefault.body).to.deep.equal({ error: 'ERR_TRANSCRIPTION_CREDENTIAL_IS_DEFAULT' });

    // An edit sends the whole loaded credential back (read-only fields ignored; its `isDefault: true` makes it the default again);
    // `test: true` alone tests the stored key.
    const edited = await d.admin.put(`/transcription-credentials/${created.body.id}`, { ...created.body, name: 'Whisper LAN', test: undefined });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.deep.include({ name: 'Whisper LAN', hasApiKey: true, apiKeyLast4: '0001', isDefault: true });
    const tested = await d.admin.put(`/transcription-credentials/${created.body.id}`, { test: true });
    expect(tested.body.test.ok).to.equal(true);
    expect(fake.requests.at(-1)!.authorization).to.equal(`Bearer ${KEY}`);
    const deleted = await d.admin.delete(`/transcription-credentials/${second.body.id}`);
    expect(deleted.body).to.deep.equal({ message: 'Transcription credential deleted' });
    expect((await d.admin.delete(`/transcription-credentials/${created.body.id}`)).status, 'the last one, default or not').to.equal(200);
    expect((await d.admin.get('/transcription-credentials/default')).body).to.deep.equal({ error: 'ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND' });
  });

  it("refuses bad input with 4xx codes, and another company's credential is 404", async () => {
    const d = await sandboxDesk(b);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: 'X', provider: 'azure', apiKey: 'k' }, 422, 'ERR_VALIDATION'],
      [{ name: 'X', provider: 'openai-compatible', baseUrl: 'ftp://stt.example.com' }, 422, 'ERR_TRANSCRIPTION_INVALID_BASE_URL'],
      [{ name: 'X', provider: 'openai-compatible' }, 422, 'ERR_TRANSCRIPTION_INVALID_BASE_URL'],
      [{ name: 'X' }, 422, 'ERR_TRANSCRIPTION_API_KEY_REQUIRED'],
      [{ name: 'X', apiKey: 'k', language: 'portuguese' }, 422, 'ERR_TRANSCRIPTION_INVALID_LANGUAGE'],
      [{ name: 'X', apiKey: 'k', model: 'a b' }, 422, 'ERR_TRANSCRIPTION_INVALID_MODEL'],
      [{ apiKey: 'k' }, 422, 'ERR_VALIDATION'],
    ];
    for (const [body, status, error] of cases) {
      const res = await d.admin.post('/transcription-credentials', body);
      expect([res.status, res.body.error], JSON.stringify(body)).to.deep.equal([status, error]);
    }
    expect((await d.admin.put('/transcription-credentials/default', {})).status).to.equal(422);
    const other = await newCompanyWithAdmin(b);
    const theirs = await other.api.post('/transcription-credentials', { name: 'Theirs', apiKey: 'sk-theirs-000000000000' });
    expect(theirs.status, JSON.stringify(theirs.body)).to.equal(200);
    for (const [method, path, body] of [
      ['PUT', `/transcription-credentials/${theirs.body.id}`, { name: 'Mine now' }],
      ['DELETE', `/transcription-credentials/${theirs.body.id}`, undefined],
      ['PUT', '/transcription-credentials/default', { id: theirs.body.id }],
    ] as const) {
      const res = await d.admin.call(method, path, body);
      expect([res.status, res.body.error], `${method} ${path}`).to.deep.equal([404, 'ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND']);
    }
    expect((await other.api.get('/transcription-credentials')).body[0].name).to.equal('Theirs');
  });

  it('transcribes a short voice note at once: the text on the message (GET /messages shows it) and an appMessage update', async () => {
    const { d, ticket, voice } = await deskWithVoice();
    expect(voice.mediaType).to.equal('audio');
    const without = await d.ana.api.post(`/transcription/${ticket.id}`, { messageId: voice.id });
    expect(without.status).to.equal(422);
    expect(without.body).to.deep.equal({ error: 'ERR_TRANSCRIPTION_CREDENTIAL_REQUIRED' });
    await credential(d.admin);
    const { token, user } = await asSuper(b);
    const ns = await openNamespace(b.url, user.companyId as number, token);
    try {
      const res = await d.ana.api.post(`/transcription/${ticket.uuid}`, { messageId: voice.id });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.deep.equal({
        ticketId: ticket.id,
        status: 'done',
        job: null,
        transcriptions: [{ messageId: voice.id, status: 'done', text: 'ouvi audio.ogg (1000 bytes, pt)', cached: false, error: null, jobId: null }],
      });
      const [req] = fake.requests;
      expect(req!.fields).to.deep.include({ model: 'whisper-1', language: 'pt' });
      expect(req!.file).to.deep.include({ filename: 'audio.ogg', contentType: 'audio/ogg' });
      const frame = await ns.waitFor((f) => f.event === `company-${user.companyId}-appMessage` && f.data.action === 'update' && f.data.message.id === voice.id);
      expect(frame.data.message).to.deep.include({ transcription: 'ouvi audio.ogg (1000 bytes, pt)', body: '' });
      const page = await d.ana.api.get(`/messages/${ticket.id}`);
      expect(page.body.messages.find((m: { id: string }) => m.id === voice.id).transcription).to.equal('ouvi audio.ogg (1000 bytes, pt)');
      // Again: the stored text, the service is not asked; a language given overrides the credential's.
      const again = await d.ana.api.post(`/transcription/${ticket.id}`, {});
      expect(again.body.transcriptions[0]).to.deep.include({ cached: true, text: 'ouvi audio.ogg (1000 bytes, pt)' });
      expect(fake.requests).to.have.length(1);
      const forced = await d.ana.api.post(`/transcription/${ticket.id}`, { force: true, language: 'en' });
      expect(forced.body.transcriptions[0].text).to.equal('ouvi audio.ogg (1000 bytes, en)');
    } finally {
      ns.close();
    }
  });

  it('checks the ticket as GET /messages does, and each message named against it', async () => {
    const { d, ticket, voice } = await deskWithVoice();
    await credential(d.admin);
    const notSeen = await d.bia.api.post(`/transcription/${ticket.id}`, {});
    expect([notSeen.status, notSeen.body.error]).to.deep.equal([403, 'ERR_NO_PERMISSION']);
    const other = await newCompanyWithAdmin(b);
    const foreign = await other.api.post(`/transcription/${ticket.id}`, {});
    expect([foreign.status, foreign.body.error]).to.deep.equal([404, 'ERR_NO_TICKET_FOUND']);
    const text = (await d.ana.api.post(`/messages/${ticket.id}`, { body: 'só texto' })).body.messages[0];
    const notAudio = await d.ana.api.post(`/transcription/${ticket.id}`, { messageIds: [text.id] });
    expect([notAudio.status, notAudio.body.error]).to.deep.equal([422, 'ERR_MESSAGE_NOT_AUDIO']);
    const elsewhere = await d.inbound('5511977770002', 'outro contato');
    const wrongTicket = await d.admin.post(`/transcription/${elsewhere.id}`, { messageId: voice.id });
    expect([wrongTicket.status, wrongTicket.body.error]).to.deep.equal([404, 'ERR_NO_MESSAGE_FOUND']);
    const bad = await d.ana.api.post(`/transcription/${ticket.id}`, { messageIds: [] });
    expect([bad.status, bad.body.error]).to.deep.equal([422, 'ERR_VALIDATION']);
    expect(fake.requests).to.have.length(0);
  });

  it("answers the service's failure clearly: refused 422, unavailable or too slow 503", async () => {
    const { d, ticket, voice } = await deskWithVoice();
    const c = await credential(d.admin);
    const ask = () => d.ana.api.post(`/transcription/${ticket.id}`, { messageId: voice.id });
    fake.mode = 'server-error';
    expect(await ask().then((r) => [r.status, r.body.error])).to.deep.equal([503, 'ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE']);
    fake.mode = 'slow';
    expect(await ask().then((r) => [r.status, r.body.error])).to.deep.equal([503, 'ERR_TRANSCRIPTION_TIMEOUT']);
    fake.mode = 'ok';
    await d.admin.put(`/transcription-credentials/${c.body.id}`, { apiKey: 'sk-wrong-0000000000000' });
    expect(await ask().then((r) => [r.status, r.body.error])).to.deep.equal([422, 'ERR_TRANSCRIPTION_PROVIDER_REFUSED']);
    expect((await d.ana.api.get(`/messages/${ticket.id}`)).body.messages.find((m: { id: string }) => m.id === voice.id).transcription).to.equal(null);
  });

  it('runs long audio as a background job: 202 with its status, transcription frames, then the text on the message', async () => {
    const { d, ticket, voice } = await deskWithVoice(8_000);
    await credential(d.admin);
    const { token, user } = await asSuper(b);
    const ns = await openNamespace(b.url, user.companyId as number, token);
    try {
      const res = await d.ana.api.post(`/transcription/${ticket.id}`, {});
      expect(res.status, JSON.stringify(res.body)).to.equal(202);
      expect(res.body.status).to.equal('queued');
      expect(res.body.job).to.deep.include({ ticketId: ticket.id, status: 'queued', total: 1, done: 0 });
      expect(res.body.transcriptions).to.deep.equal([
        { messageId: voice.id, status: 'queued', text: null, cached: false, error: null, jobId: res.body.job.id },
      ]);
      const done = await ns.waitFor((f) => f.event === `company-${user.companyId}-transcription` && f.data.job.status === 'done', 10_000);
      expect(done.data.job).to.deep.include({ id: res.body.job.id, total: 1, done: 1, failed: 0 });
      expect(ns.of('transcription').map((f) => f.data.job.status)).to.deep.equal(['queued', 'running', 'running', 'done']);
      const stored = await eventually('the transcript on the message', async () => {
        const page = await d.ana.api.get(`/messages/${ticket.id}`);
        return page.body.messages.find((m: { id: string }) => m.id === voice.id).transcription as string | null;
      });
      expect(stored).to.equal('ouvi audio.ogg (8000 bytes, pt)');
      // Asked again once it is done: the stored text.
      expect((await d.ana.api.post(`/transcription/${ticket.id}`, {})).body).to.deep.include({ status: 'done', job: null });
    } finally {
      ns.close();
    }
  });
});
