import { expect } from 'chai';
import { ServiceUnavailableError, ValidationError, type Message, type Ticket } from '../../src/index.js';
import type { InMemorySpeechToText, SpeechToTextCall } from '../../src/in-memory/transcription.js';
import { TRANSCRIPTION_JOB, type TranscriptionJobPayload } from '../../src/transcription/run-transcription-job.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';
import { code, ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';

/** Acme (every plan feature) from the ticket world, a company whose plan lacks AI, and a fake speech-to-text service. */
async function transcriptionWorld() {
  const w = await ticketWorld();
  w.ports.jobDefinitions.push(...w.app.transcription.jobs());
  const stt = w.ports.speechToText as InMemorySpeechToText;
  const noAi = await w.ports.plans.add(planFixture('No AI', { features: { ...planFixture('x').features, ai: false } }));
  const small = await w.ports.companies.add(companyFixture(noAi.id, 'Small'));
  const smallUser = await w.ports.users.add(userFixture(small.id, 'admin@small.test', { profile: 'admin' }));
  /** Answers `heard <filename>` (and records what it was sent). */
  stt.respond = async (call: SpeechToTextCall) => ({ text: `  heard ${call.audio.filename}  ` });
  let n = 0;
  /** An audio message of the ticket whose file is in blob storage. */
  const audio = async (ticket: Ticket, size = 2_000, overrides: Partial<Message> = {}): Promise<Message> => {
    const key = `public/company-${ticket.companyId}/media/voice-${++n}.ogg`;
    await w.ports.blobs.put(key, Buffer.alloc(size, n), 'audio/ogg');
    w.ports.clock.advance(1_000);
    return w.message(ticket, {
      media: { key, url: `http://files.test/${key}`, contentType: 'audio/ogg; codecs=opus', filename: `voice-${n}.ogg`, size },
      ...overrides,
    });
  };
  const credential = (overrides: Record<string, unknown> = {}) =>
    w.app.transcription.createTranscriptionCredential.execute({ actor: w.admin, name: 'OpenAI', apiKey: 'sk-proj-0123456789abcdef', ...overrides });
  /** Runs the queued transcription jobs, as the runner would, until none is left. */
  const runJobs = async (attempt = 1) => {
    for (;;) {
      const [job] = await w.ports.jobStore.claim({ owner: 'test', limit: 1, leaseMs: new Map([[TRANSCRIPTION_JOB, 60_000]]) });
      if (!job) return;
      await w.app.transcription.runTranscriptionJob.execute(job.payload as TranscriptionJobPayload, attempt);
      await w.ports.jobStore.complete(job.lease);
    }
  };
  const events = (entity: string) => w.ports.realtime.events.filter((e) => e.entity === entity);
  return { ...w, stt, audio, credential, runJobs, events, small: { userId: smallUser.id, companyId: small.id, profile: 'admin' as const } };
}

describe('Transcription: credentials', () => {
  it('creates credentials with the key sealed and write-only; the first is the default; names are unique without regard to case', async () => {
    const w = await transcriptionWorld();
    const first = await w.credential();
    expect(first).to.include({
      name: 'OpenAI',
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'whisper-1',
      language: null,
      isDefault: true,
      hasApiKey: true,
      apiKeyLast4: 'cdef',
    });
    expect(first).to.not.have.any.keys('apiKey', 'apiKeySealed', 'apiKeyHint');
    const stored = (await w.ports.transcriptionCredentials.findById(w.acme.id, first.id))!;
    expect(stored.apiKeySealed).to.be.a('string').and.not.include('sk-proj-0123456789abcdef');
    expect(w.ports.secretCipher.open(stored.apiKeySealed!, `transcription-credential:${w.acme.id}`)).to.equal('sk-proj-0123456789abcdef');
    const local = await w.credential({
      name: 'Whisper local',
      provider: 'openai-compatible',
      baseUrl: 'http://whisper.lan:9000/v1/',
      model: 'Systran/faster-whisper-small',
      apiKey: null,
      language: 'PT',
    });
    expect(local).to.include({ isDefault: false, hasApiKey: false, apiKeyLast4: null, baseUrl: 'http://whisper.lan:9000/v1', language: 'pt' });
    expect(await code(w.credential({ name: 'openai' }))).to.equal('ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE');
    expect((await w.app.transcription.listTranscriptionCredentials.execute({ actor: w.admin })).map((c) => c.name)).to.deep.equal(['OpenAI', 'Whisper local']);
    expect(await code(w.credential({ name: 'Short key', apiKey: 'sk-1' }))).to.equal('resolved');
    const short = (await w.app.transcription.listTranscriptionCredentials.execute({ actor: w.admin })).find((c) => c.name === 'Short key')!;
    expect(short).to.include({ hasApiKey: true, apiKeyLast4: null });
  });

  it('refuses incomplete or malformed credentials', async () => {
    const w = await transcriptionWorld();
    expect(await code(w.credential({ apiKey: undefined }))).to.equal('ERR_TRANSCRIPTION_API_KEY_REQUIRED');
    expect(await code(w.credential({ provider: 'openai-compatible', apiKey: null }))).to.equal('ERR_TRANSCRIPTION_INVALID_BASE_URL');
    for (const baseUrl of ['ftp://x.example/v1', 'https://user:pw@x.example/v1', 'https://x.example/v1?key=1', 'not a url']) {
      expect(await code(w.credential({ baseUrl })), baseUrl).to.equal('ERR_TRANSCRIPTION_INVALID_BASE_URL');
    }
    expect(await code(w.credential({ model: 'whisper 1' }))).to.equal('ERR_TRANSCRIPTION_INVALID_MODEL');
    expect(await code(w.credential({ language: 'por' }))).to.equal('ERR_TRANSCRIPTION_INVALID_LANGUAGE');
    expect(await code(w.credential({ apiKey: 'sk with space' }))).to.equal('ERR_TRANSCRIPTION_INVALID_API_KEY');
    expect(await code(w.credential({ name: '  ' }))).to.equal('ERR_TRANSCRIPTION_INVALID_NAME');
    expect(await w.app.transcription.listTranscriptionCredentials.execute({ actor: w.admin })).to.deep.equal([]);
  });

  it("lets admins manage credentials and any operator read the default; another company's credential is 404; plans without AI are 403", async () => {
    const w = await transcriptionWorld();
    const c = await w.credential();
    expect(await code(w.app.transcription.listTranscriptionCredentials.execute({ actor: w.ana }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.credential({ actor: w.ana, name: 'Mine' }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.app.transcription.deleteTranscriptionCredential.execute({ actor: w.ana, credentialId: c.id }))).to.equal('ERR_NO_PERMISSION');
    expect((await w.app.transcription.showDefaultTranscriptionCredential.execute({ actor: w.ana })).id).to.equal(c.id);
    expect(await code(w.app.transcription.showDefaultTranscriptionCredential.execute({ actor: w.otherAdmin }))).to.equal(
      'ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND',
    );
    for (const attempt of [
      w.app.transcription.setDefaultTranscriptionCredential.execute({ actor: w.otherAdmin, credentialId: c.id }),
      w.app.transcription.updateTranscriptionCredential.execute({ actor: w.otherAdmin, credentialId: c.id, name: 'Stolen' }),
      w.app.transcription.deleteTranscriptionCredential.execute({ actor: w.otherAdmin, credentialId: c.id }),
    ])
      expect(await code(attempt)).to.equal('ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND');
    expect((await w.ports.transcriptionCredentials.findById(w.acme.id, c.id))!.name).to.equal('OpenAI');
    expect(await code(w.app.transcription.listTranscriptionCredentials.execute({ actor: w.small }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
    expect(await code(w.credential({ actor: w.small }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
  });

  it('keeps exactly one default, and deletes the default only when it is the last credential', async () => {
    const w = await transcriptionWorld();
    const a = await w.credential({ name: 'A' });
    const b = await w.credential({ name: 'B', isDefault: true });
    const c = await w.credential({ name: 'C' });
    const defaults = async () =>
      (await w.app.transcription.listTranscriptionCredentials.execute({ actor: w.admin })).filter((x) => x.isDefault).map((x) => x.name);
    expect(await defaults()).to.deep.equal(['B']);
    expect((await w.app.transcription.setDefaultTranscriptionCredential.execute({ actor: w.admin, credentialId: c.id })).isDefault).to.equal(true);
    expect(await defaults()).to.deep.equal(['C']);
    await w.app.transcription.updateTranscriptionCredential.execute({ actor: w.admin, credentialId: a.id, isDefault: true });
    expect(await defaults()).to.deep.equal(['A']);
    // The default stops being it only when another becomes it.
    await w.app.transcription.updateTranscriptionCredential.execute({ actor: w.admin, credentialId: a.id, isDefault: false });
    expect(await defaults()).to.deep.equal(['A']);
    expect(await code(w.app.transcription.deleteTranscriptionCredential.execute({ actor: w.admin, credentialId: a.id }))).to.equal(
      'ERR_TRANSCRIPTION_CREDENTIAL_IS_DEFAULT',
    );
    await w.app.transcription.deleteTranscriptionCredential.execute({ actor: w.admin, credentialId: b.id });
    await w.app.transcription.deleteTranscriptionCredential.execute({ actor: w.admin, credentialId: c.id });
    await w.app.transcription.deleteTranscriptionCredential.execute({ actor: w.admin, credentialId: a.id });
    expect(await w.app.transcription.listTranscriptionCredentials.execute({ actor: w.admin })).to.deep.equal([]);
    expect(await code(w.app.transcription.setDefaultTranscriptionCredential.execute({ actor: w.admin, credentialId: a.id }))).to.equal(
      'ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND',
    );
  });

  it('edits only what is given: the key is kept unless replaced or removed', async () => {
    const w = await transcriptionWorld();
    const c = await w.credential({ provider: 'openai-compatible', baseUrl: 'https://stt.example.com/v1' });
    const sealed = async () => (await w.ports.transcriptionCredentials.findById(w.acme.id, c.id))!.apiKeySealed;
    const before = await sealed();
    const renamed = await w.app.transcription.updateTranscriptionCredential.execute({
      actor: w.admin,
      credentialId: c.id,
      name: 'Renamed',
      model: 'whisper-large-v3',
    });
    expect(renamed).to.include({ name: 'Renamed', model: 'whisper-large-v3', hasApiKey: true, apiKeyLast4: 'cdef', baseUrl: 'https://stt.example.com/v1' });
    expect(await sealed()).to.equal(before);
    expect(
      await w.app.transcription.updateTranscriptionCredential.execute({ actor: w.admin, credentialId: c.id, apiKey: 'sk-new-key-999999999999' }),
    ).to.include({ apiKeyLast4: '9999' });
    expect(await w.app.transcription.updateTranscriptionCredential.execute({ actor: w.admin, credentialId: c.id, apiKey: null })).to.include({
      hasApiKey: false,
    });
    expect(await code(w.app.transcription.updateTranscriptionCredential.execute({ actor: w.admin, credentialId: c.id, provider: 'openai' }))).to.equal(
      'ERR_TRANSCRIPTION_API_KEY_REQUIRED',
    );
    await w.credential({ name: 'Other' });
    expect(await code(w.app.transcription.updateTranscriptionCredential.execute({ actor: w.admin, credentialId: c.id, name: 'OTHER' }))).to.equal(
      'ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE',
    );
  });

  it('test calls the service with half a second of silence before saving; a failed test saves nothing', async () => {
    const w = await transcriptionWorld();
    w.stt.respond = async () => ({ text: '' });
    const saved = await w.credential({ test: true, language: 'pt' });
    expect(saved.test).to.deep.equal({ ok: true, latencyMs: 0, text: '' });
    const [call] = w.stt.calls;
    expect(call!.endpoint).to.deep.equal({ baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', apiKey: 'sk-proj-0123456789abcdef' });
    expect(call!.audio).to.include({ contentType: 'audio/wav', filename: 'test.wav' });
    expect(call!.audio.data.subarray(0, 4).toString()).to.equal('RIFF');
    expect(call!.language).to.equal('pt');
    w.stt.respond = async () => {
      throw new ValidationError('ERR_TRANSCRIPTION_PROVIDER_REFUSED');
    };
    expect(await code(w.credential({ name: 'Bad key', apiKey: 'sk-revoked-00000000', test: true }))).to.equal('ERR_TRANSCRIPTION_PROVIDER_REFUSED');
    expect(
      await code(w.app.transcription.updateTranscriptionCredential.execute({ actor: w.admin, credentialId: saved.id, model: 'nope', test: true })),
    ).to.equal('ERR_TRANSCRIPTION_PROVIDER_REFUSED');
    expect((await w.app.transcription.listTranscriptionCredentials.execute({ actor: w.admin })).map((c) => [c.name, c.model])).to.deep.equal([
      ['OpenAI', 'whisper-1'],
    ]);
    // A test of the stored credential uses its stored key.
    w.stt.respond = async () => ({ text: 'ok' });
    await w.app.transcription.updateTranscriptionCredential.execute({ actor: w.admin, credentialId: saved.id, test: true });
    expect(w.stt.calls.at(-1)!.endpoint.apiKey).to.equal('sk-proj-0123456789abcdef');
  });
});

describe("Transcription: a ticket's audio", () => {
  it('without a credential answers 422 with a clear code, and checks the ticket first', async () => {
    const w = await transcriptionWorld();
    const ticket = await w.ticket({ status: 'open', userId: w.ana.userId });
    await w.audio(ticket);
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id }))).to.equal('ERR_TRANSCRIPTION_CREDENTIAL_REQUIRED');
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.otherAdmin, ticketId: ticket.id }))).to.equal('ERR_NO_TICKET_FOUND');
    expect(w.stt.calls).to.have.length(0);
  });

  it('transcribes a short audio while the request waits: the text on the message, an appMessage update, the body untouched', async () => {
    const w = await transcriptionWorld();
    await w.credential({ language: 'pt' });
    const ticket = await w.ticket({ status: 'open', userId: w.ana.userId });
    const voice = await w.audio(ticket, 3_000, { body: 'original body' });
    const result = await w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.uuid, messageIds: [voice.id] });
    expect(result).to.deep.equal({
      ticketId: ticket.id,
      status: 'done',
      job: null,
      transcriptions: [{ messageId: voice.id, status: 'done', text: 'heard voice-1.ogg', cached: false, error: null, jobId: null }],
    });
    const [call] = w.stt.calls;
    expect(call!.endpoint).to.deep.equal({ baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', apiKey: 'sk-proj-0123456789abcdef' });
    expect(call!.audio).to.include({ contentType: 'audio/ogg; codecs=opus', filename: 'voice-1.ogg' });
    expect(call!.audio.data.equals(Buffer.alloc(3_000, 1))).to.equal(true);
    expect(call!.language).to.equal('pt');
    const stored = (await w.ports.messages.findById(w.acme.id, voice.id))!;
    expect(stored).to.include({ transcription: 'heard voice-1.ogg', body: 'original body' });
    const [update] = w.events('appMessage');
    expect(update!.data).to.deep.include({ action: 'update' });
    expect((update!.data as { message: { id: string; transcription: string; ticket: { id: number } } }).message).to.deep.include({
      id: voice.id,
      transcription: 'heard voice-1.ogg',
    });
    // Asked again: the stored text, without calling the service; `force` transcribes again, `language` overrides the credential's.
    const again = await w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id });
    expect(again.transcriptions).to.deep.equal([{ messageId: voice.id, status: 'done', text: 'heard voice-1.ogg', cached: true, error: null, jobId: null }]);
    expect(w.stt.calls).to.have.length(1);
    await w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id, force: true, language: 'en' });
    expect(w.stt.calls).to.have.length(2);
    expect(w.stt.calls[1]!.language).to.equal('en');
  });

  it('checks the ticket as GET /messages does and each message named against it', async () => {
    const w = await transcriptionWorld();
    await w.credential();
    const bias = await w.ticket({ status: 'open', userId: w.bia.userId });
    const voice = await w.audio(bias);
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: bias.id }))).to.equal('ERR_NO_PERMISSION');
    const anas = await w.ticket({ status: 'open', userId: w.ana.userId });
    const text = await w.message(anas, { body: 'just text' });
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: anas.id, messageIds: [voice.id] }))).to.equal(
      'ERR_NO_MESSAGE_FOUND',
    );
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: anas.id, messageIds: [text.id] }))).to.equal(
      'ERR_MESSAGE_NOT_AUDIO',
    );
    expect(
      await code(w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: anas.id, messageIds: ['00000000-0000-4000-8000-999999999999'] })),
    ).to.equal('ERR_NO_MESSAGE_FOUND');
    const theirs = await w.app.transcription.createTranscriptionCredential.execute({ actor: w.otherAdmin, name: 'Theirs', apiKey: 'sk-their-0123456789' });
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.admin, ticketId: bias.id, credentialId: theirs.id }))).to.equal(
      'ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND',
    );
    // The admin sees every ticket; a ticket without audio has nothing to transcribe.
    expect((await w.app.transcription.transcribeTicket.execute({ actor: w.admin, ticketId: bias.id })).transcriptions.map((t) => t.status)).to.deep.equal([
      'done',
    ]);
    expect(await w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: anas.id })).to.deep.include({ status: 'done', transcriptions: [] });
    expect(w.stt.calls).to.have.length(1);
  });

  it("answers the service's failure when nothing was transcribed, and each outcome when some were", async () => {
    const w = await transcriptionWorld();
    await w.credential();
    const ticket = await w.ticket({ status: 'open', userId: w.ana.userId });
    const one = await w.audio(ticket);
    w.stt.respond = async () => {
      throw new ValidationError('ERR_TRANSCRIPTION_PROVIDER_REFUSED');
    };
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id }))).to.equal('ERR_TRANSCRIPTION_PROVIDER_REFUSED');
    w.stt.respond = async () => {
      throw new ServiceUnavailableError('ERR_TRANSCRIPTION_TIMEOUT');
    };
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id }))).to.equal('ERR_TRANSCRIPTION_TIMEOUT');
    expect((await w.ports.messages.findById(w.acme.id, one.id))!.transcription).to.equal(null);
    const two = await w.audio(ticket);
    w.stt.respond = async (call) => {
      if (call.audio.filename === 'voice-1.ogg') throw new ServiceUnavailableError('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE');
      return { text: 'segundo' };
    };
    const result = await w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id });
    expect(result.transcriptions.map((t) => [t.messageId, t.status, t.text, t.error])).to.deep.equal([
      [one.id, 'failed', null, 'ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE'],
      [two.id, 'done', 'segundo', null],
    ]);
    // Audio over 25 MB is refused before it is sent; its file gone is a failure of its own.
    const huge = await w.audio(ticket, 10, { media: { key: 'k', url: 'u', contentType: 'audio/ogg', filename: 'huge.ogg', size: 26 * 1024 * 1024 } });
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id, messageIds: [huge.id] }))).to.equal(
      'ERR_AUDIO_TOO_LARGE',
    );
    const gone = await w.audio(ticket);
    await w.ports.blobs.delete(gone.media!.key);
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id, messageIds: [gone.id] }))).to.equal(
      'ERR_AUDIO_NOT_FOUND',
    );
  });

  it('says so when the key was sealed under another server key', async () => {
    const w = await transcriptionWorld();
    const c = await w.credential();
    const stored = (await w.ports.transcriptionCredentials.findById(w.acme.id, c.id))!;
    // Sealed for another company: as if copied between rows, it does not open here.
    await w.ports.transcriptionCredentials.update({ ...stored, apiKeySealed: w.ports.secretCipher.seal('sk-x', 'transcription-credential:999') });
    const ticket = await w.ticket({ status: 'open', userId: w.ana.userId });
    await w.audio(ticket);
    expect(await code(w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id }))).to.equal('ERR_TRANSCRIPTION_CREDENTIAL_UNREADABLE');
  });
});

describe('Transcription: long audio as a background job', () => {
  it("queues a job for audio over the request's share, reports it to whoever asks again, and transcribes in runs of five", async () => {
    const w = await transcriptionWorld();
    await w.credential();
    const ticket = await w.ticket({ status: 'open', userId: w.ana.userId });
    const voices: Message[] = [];
    for (let i = 0; i < 7; i++) voices.push(await w.audio(ticket));
    const result = await w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id });
    expect(result.status).to.equal('queued');
    expect(result.job).to.deep.include({ ticketId: ticket.id, status: 'queued', total: 7, done: 0, failed: 0, error: null, finishedAt: null });
    expect(result.transcriptions.map((t) => [t.messageId, t.status, t.jobId])).to.deep.equal(voices.map((v) => [v.id, 'queued', result.job!.id]));
    expect(w.stt.calls).to.have.length(0);
    expect(w.events('transcription').map((e) => (e.data as { job: { status: string } }).job.status)).to.deep.equal(['queued']);
    // Asking again while it waits: the same job, no second one.
    const again = await w.app.transcription.transcribeTicket.execute({ actor: w.admin, ticketId: ticket.id, messageIds: [voices[2]!.id] });
    expect(again).to.deep.include({ status: 'queued' });
    expect(again.job!.id).to.equal(result.job!.id);
    expect(await w.ports.transcriptionJobs.activeForTicket(w.acme.id, ticket.id)).to.have.length(1);

    await w.runJobs();
    expect(w.stt.calls).to.have.length(7);
    const job = (await w.ports.transcriptionJobs.findById(w.acme.id, result.job!.id))!;
    expect(job).to.deep.include({ status: 'done', error: null });
    expect(job.items.every((i) => i.status === 'done')).to.equal(true);
    for (const v of voices) expect((await w.ports.messages.findById(w.acme.id, v.id))!.transcription).to.match(/^heard voice-\d\.ogg$/);
    const statuses = w.events('transcription').map((e) => (e.data as { job: { status: string; done: number } }).job);
    expect(statuses.map((s) => `${s.status}:${s.done}`)).to.deep.equal([
      'queued:0',
      'running:0',
      'running:1',
      'running:2',
      'running:3',
      'running:4',
      'running:5',
      'running:6',
      'running:7',
      'done:7',
    ]);
    expect(w.events('appMessage').filter((e) => e.data.action === 'update')).to.have.length(7);
    expect(await w.ports.transcriptionJobs.activeForTicket(w.acme.id, ticket.id)).to.deep.equal([]);
  });

  it('retries a run while the service is unavailable, fails what is left on the last try, and fails at once what the service refuses', async () => {
    const w = await transcriptionWorld();
    await w.credential();
    const ticket = await w.ticket({ status: 'open', userId: w.ana.userId });
    const [a, b, c, d] = [await w.audio(ticket), await w.audio(ticket), await w.audio(ticket), await w.audio(ticket)];
    const { job } = await w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id });
    const payload = { companyId: w.acme.id, jobId: job!.id };
    w.stt.respond = async (call) => {
      if (call.audio.filename === 'voice-2.ogg') throw new ValidationError('ERR_TRANSCRIPTION_PROVIDER_REFUSED');
      if (call.audio.filename === 'voice-3.ogg') throw new ServiceUnavailableError('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE');
      return { text: 'ok' };
    };
    expect(await code(w.app.transcription.runTranscriptionJob.execute(payload, 1))).to.equal('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE');
    const items = async () => (await w.ports.transcriptionJobs.findById(w.acme.id, job!.id))!.items.map((i) => [i.messageId, i.status, i.error]);
    expect(await items()).to.deep.equal([
      [a.id, 'done', null],
      [b.id, 'failed', 'ERR_TRANSCRIPTION_PROVIDER_REFUSED'],
      [c.id, 'pending', null],
      [d.id, 'pending', null],
    ]);
    await w.app.transcription.runTranscriptionJob.execute(payload, 3);
    expect(await items()).to.deep.equal([
      [a.id, 'done', null],
      [b.id, 'failed', 'ERR_TRANSCRIPTION_PROVIDER_REFUSED'],
      [c.id, 'failed', 'ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE'],
      [d.id, 'done', null],
    ]);
    expect((await w.ports.transcriptionJobs.findById(w.acme.id, job!.id))!.status).to.equal('done');
    // Done jobs are not run again.
    const calls = w.stt.calls.length;
    await w.app.transcription.runTranscriptionJob.execute(payload, 1);
    expect(w.stt.calls).to.have.length(calls);
  });

  it('fails the job when its credential is gone, and forgets finished jobs after a week', async () => {
    const w = await transcriptionWorld();
    const c = await w.credential();
    const ticket = await w.ticket({ status: 'open', userId: w.ana.userId });
    for (let i = 0; i < 4; i++) await w.audio(ticket);
    const { job } = await w.app.transcription.transcribeTicket.execute({ actor: w.ana, ticketId: ticket.id });
    await w.app.transcription.deleteTranscriptionCredential.execute({ actor: w.admin, credentialId: c.id });
    await w.runJobs();
    const failed = (await w.ports.transcriptionJobs.findById(w.acme.id, job!.id))!;
    expect(failed).to.deep.include({ status: 'failed', error: 'ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND' });
    expect(failed.items.every((i) => i.status === 'failed' && i.error === 'ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND')).to.equal(true);
    expect(w.stt.calls).to.have.length(0);
    expect(await w.app.transcription.expireTranscriptionJobs.execute()).to.equal(0);
    w.ports.clock.advance(7 * 24 * 3_600_000 + 1);
    expect(await w.app.transcription.expireTranscriptionJobs.execute()).to.equal(1);
    expect(await w.ports.transcriptionJobs.findById(w.acme.id, job!.id)).to.equal(null);
  });
});
