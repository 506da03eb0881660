import { expect } from 'chai';
import { startFakeSpeechProvider, type FakeSpeechProvider } from '@servicedesk/core/contracts/fake-speech-provider';
import { OpenAiSpeechToText, uploadName } from '../src/index.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
const voice = { data: Buffer.from('OggS fake opus bytes'), contentType: 'audio/ogg; codecs=opus', filename: 'PTT-20250101-WA0001.opus' };

describe('OpenAiSpeechToText against a fake OpenAI-compatible service on loopback', () => {
  let fake: FakeSpeechProvider;
  const stt = new OpenAiSpeechToText({ allowPrivate: true, timeoutMs: 2_000 });
  const endpoint = () => ({ baseUrl: fake.baseUrl, model: 'whisper-1', apiKey: 'sk-good-0123456789' });

  before(async () => {
    fake = await startFakeSpeechProvider({ keys: ['sk-good-0123456789'], models: ['whisper-1', 'gpt-4o-transcribe'] });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.mode = 'ok';
    fake.transcript = (file) => `heard ${file.filename} (${file.data.length} bytes)`;
  });

  it('posts the audio as OpenAI documents it (multipart file, model, language, json) with the key as a Bearer token, and answers the text', async () => {
    const result = await stt.transcribe(endpoint(), voice, { language: 'pt' });
    expect(result).to.deep.equal({ text: 'heard PTT-20250101-WA0001.ogg (20 bytes)' });
    const [req] = fake.requests;
    expect(req).to.deep.include({ method: 'POST', path: '/v1/audio/transcriptions', authorization: 'Bearer sk-good-0123456789' });
    expect(req!.contentType).to.match(/^multipart\/form-data; boundary=/);
    expect(req!.fields).to.deep.equal({ model: 'whisper-1', response_format: 'json', language: 'pt' });
    expect(req!.file).to.deep.include({ name: 'file', filename: 'PTT-20250101-WA0001.ogg', contentType: 'audio/ogg' });
    expect(req!.file!.data.equals(voice.data)).to.equal(true);
  });

  it('sends no language when none is known, and no Authorization header without a key (a local server)', async () => {
    fake.keys.clear();
    try {
      await stt.transcribe({ ...endpoint(), baseUrl: `${fake.baseUrl}/`, apiKey: null }, voice);
      const [req] = fake.requests;
      expect(req!.authorization).to.equal(null);
      expect(req!.fields).to.not.have.property('language');
      expect(req!.path).to.equal('/v1/audio/transcriptions');
    } finally {
      fake.keys.add('sk-good-0123456789');
    }
  });

  it('a refused key, an unknown model or a bad file is ERR_TRANSCRIPTION_PROVIDER_REFUSED', async () => {
    expect(await code(stt.transcribe({ ...endpoint(), apiKey: 'sk-revoked' }, voice))).to.equal('ERR_TRANSCRIPTION_PROVIDER_REFUSED');
    expect(await code(stt.transcribe({ ...endpoint(), model: 'whisper-9' }, voice))).to.equal('ERR_TRANSCRIPTION_PROVIDER_REFUSED');
    expect(await code(stt.transcribe(endpoint(), { ...voice, data: Buffer.alloc(0) }))).to.equal('ERR_TRANSCRIPTION_PROVIDER_REFUSED');
  });

  it('a 5xx, a rate limit or an answer that is not a transcription is ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE', async () => {
    for (const mode of ['server-error', 'rate-limited', 'not-json'] as const) {
      fake.mode = mode;
      expect(await code(stt.transcribe(endpoint(), voice)), mode).to.equal('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE');
    }
    fake.mode = 'ok';
    fake.transcript = () => 'x'.repeat(3 * 1024 * 1024);
    expect(await code(stt.transcribe(endpoint(), voice))).to.equal('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE');
  });

  it('a service that does not answer in time is ERR_TRANSCRIPTION_TIMEOUT; one that is not there is unavailable', async () => {
    fake.mode = 'slow';
    const quick = new OpenAiSpeechToText({ allowPrivate: true, timeoutMs: 150 });
    expect(await code(quick.transcribe(endpoint(), voice))).to.equal('ERR_TRANSCRIPTION_TIMEOUT');
    expect(await code(quick.transcribe({ ...endpoint(), baseUrl: 'http://127.0.0.1:9/v1' }, voice))).to.equal('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE');
  });

  it('refuses loopback and private addresses unless allowed, before connecting', async () => {
    const strict = new OpenAiSpeechToText();
    for (const baseUrl of [fake.baseUrl, 'http://10.0.0.8/v1', 'http://169.254.169.254/latest', 'http://[::1]/v1', 'http://[::ffff:127.0.0.1]/v1']) {
      expect(await code(strict.transcribe({ ...endpoint(), baseUrl }, voice)), baseUrl).to.equal('ERR_URL_NOT_ALLOWED');
    }
    expect(fake.requests).to.have.length(0);
    expect(await code(strict.transcribe({ ...endpoint(), baseUrl: 'ftp://example.com/v1' }, voice))).to.equal('ERR_TRANSCRIPTION_INVALID_BASE_URL');
  });

  it('names the file so that the service can tell its format', () => {
    expect(uploadName('voice.ogg', 'audio/ogg')).to.equal('voice.ogg');
    expect(uploadName('PTT.opus', 'audio/ogg; codecs=opus')).to.equal('PTT.ogg');
    expect(uploadName('audio', 'audio/mpeg')).to.equal('audio.mp3');
    expect(uploadName('rec.oga', 'audio/ogg')).to.equal('rec.ogg');
    expect(uploadName('nota "de" voz\r\n.m4a', 'audio/mp4')).to.equal('nota__de__voz__.m4a');
    expect(uploadName('', 'audio/wav')).to.equal('audio.wav');
    expect(uploadName('clip.amr', 'audio/amr')).to.equal('clip.amr');
  });
});
