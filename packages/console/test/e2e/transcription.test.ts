import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type FakeSpeechProvider, startFakeSpeechProvider } from '@servicedesk/core/contracts/fake-speech-provider';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, asSuper, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const KEY = 'sk-proj-console-transcription-0001';

/**
 * Transcription in Chromium against the real backend and the fake speech-to-text service on
 * loopback: the credentials screen (an address refused at its field, a key the service refuses,
 * then saved with the key never shown back; an edit that keeps it; the default moved and a
 * refused delete), a contact's voice note from the sandbox transcribed in the conversation and
 * seen live in a second admin's browser, the service down shown in words and tried again, and
 * Spanish at a phone's width. One backend and one browser, the steps in order.
 */
describe('console: transcription in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let fake: FakeSpeechProvider;
  let cdn: http.Server;
  let cdnUrl: string;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let ticketId: number;
  const from = '5511977771234';

  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });
  const voices = (p: Page) =>
    p
      .getByTestId('messages')
      .getByTestId('message')
      .filter({ has: p.locator('audio') });

  /** The contact sends a voice note (the sandbox's file comes from the loopback CDN); resolves once it is stored. */
  async function voiceNote(count: number) {
    b.sandbox!.inject(desk.connectionId, {
      from,
      senderName: 'Maria Souza',
      body: '',
      media: { kind: 'voice', mimetype: 'audio/ogg; codecs=opus', source: { from: 'url', url: `${cdnUrl}/voice-${count}.ogg` } },
    });
    return eventually('the voice note stored', async () => {
      const found = (await desk.admin.get(`/tickets?showAll=true&searchParam=${from}`)).body.tickets[0]?.id as number | undefined;
      if (!found) return null;
      const page = (await desk.admin.get(`/messages/${found}`)).body.messages as Array<{ mediaType: string; mediaUrl: string | null }>;
      return page.filter((m) => m.mediaType === 'audio' && m.mediaUrl).length >= count ? found : null;
    });
  }

  before(async function () {
    prepareConsole(this);
    fake = await startFakeSpeechProvider({ keys: [KEY] });
    fake.transcript = (_file, fields) => `Bom dia, quero saber do meu pedido (${fields.language ?? 'auto'})`;
    cdn = http.createServer((req, res) => {
      // Voice notes 3 and on are over TRANSCRIPTION_INLINE_MAX_BYTES: a background job transcribes them.
      const long = Number(/^\/voice-(\d+)/.exec(req.url ?? '')?.[1] ?? 0) >= 3;
      if (req.url?.startsWith('/voice-')) return void res.writeHead(200, { 'content-type': 'audio/ogg' }).end(Buffer.alloc(long ? 3_000 : 1_500, 7));
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
    b = await startTestBackend({
      ALLOW_PRIVATE_URLS: 'true',
      TRANSCRIPTION_TIMEOUT_MS: '2000',
      TRANSCRIPTION_INLINE_MAX_BYTES: '2000',
      INBOUND_MEDIA_RETRY_MS: '50',
      OUTBOX_RELAY_INTERVAL_MS: '100',
    });
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
    desk = await sandboxDesk(b);
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await fake?.close();
    await new Promise<void>((resolve) => (cdn ? cdn.close(() => resolve()) : resolve()));
  });

  it('saves a credential with the key write-only: an address refused at its field, a key the service refuses, then saved and tested', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/transcription');
    await page.getByRole('heading', { name: 'Transcription', level: 1 }).waitFor();
    await page.getByText('No credential yet').waitFor();
    await expectAccessible(page, 'the empty transcription screen');

    await page.getByRole('button', { name: 'New credential' }).click();
    const dialog = page.getByRole('dialog', { name: 'New transcription credential' });
    await dialog.getByLabel('Name').fill('Whisper');
    await dialog.getByLabel('Service', { exact: true }).selectOption('openai-compatible');
    await dialog.getByLabel('API key').fill('sk-revoked-000000000000');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const address = dialog.getByLabel('Address');
    await dialog.getByRole('alert').filter({ hasText: 'Give the service’s address' }).waitFor();
    expect(await address.getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('API key').inputValue(), 'nothing typed lost').to.equal('sk-revoked-000000000000');

    // The test call first: the service refuses this key, and nothing is saved.
    await address.fill(fake.baseUrl);
    await dialog.getByLabel('Language').fill('pt');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The transcription service refused the request' }).waitFor();
    await expectAccessible(page, 'a refused credential');
    await shot(page, 'transcription', '01-refused');
    const { api } = await asSuper(b);
    expect((await api.get('/transcription-credentials')).body).to.deep.equal([]);

    await dialog.getByLabel('API key').fill(KEY);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page
      .getByTestId('transcription-notice')
      .filter({ hasText: /The credential Whisper was saved\. Whisper answered in \d+ ms\./ })
      .waitFor();
    await row(page, 'Whisper').getByText('••••0001').waitFor();
    await row(page, 'Whisper').getByText('Default').waitFor();
    expect(await page.content(), 'the key is never shown back').to.not.include(KEY);
    expect(fake.requests.at(-1)!.authorization).to.equal(`Bearer ${KEY}`);

    // An edit leaves the key field empty, showing its mask; saved without a key, the stored one stays.
    await page.getByRole('button', { name: 'Edit Whisper' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Whisper' });
    const key = edit.getByLabel('API key');
    expect(await key.inputValue()).to.equal('');
    expect(await key.getAttribute('placeholder')).to.equal('••••0001');
    await edit.getByLabel('Name').fill('Whisper LAN');
    await edit.getByLabel('Test the service before saving').uncheck();
    await edit.getByRole('button', { name: 'Save' }).click();
    await edit.waitFor({ state: 'detached' });
    await row(page, 'Whisper LAN').waitFor();
    const [saved] = (await api.get('/transcription-credentials')).body;
    expect(saved).to.deep.include({ name: 'Whisper LAN', hasApiKey: true, apiKeyLast4: '0001', language: 'pt', isDefault: true, baseUrl: fake.baseUrl });
  });

  it('moves the default, refuses to delete the default in words, and deletes another after asking', async () => {
    const { api } = await asSuper(b);
    expect((await api.post('/transcription-credentials', { name: 'Spare', provider: 'openai-compatible', baseUrl: fake.baseUrl })).status).to.equal(200);
    await page.reload();
    await page.getByRole('button', { name: 'Make Spare the default' }).click();
    await page.getByTestId('transcription-notice').filter({ hasText: 'Spare is now the default.' }).waitFor();
    await row(page, 'Spare').getByText('Default').waitFor();
    await page.getByRole('button', { name: 'Make Whisper LAN the default' }).click();
    await row(page, 'Whisper LAN').getByText('Default').waitFor();

    await row(page, 'Whisper LAN').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete the credential Whisper LAN?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alert').filter({ hasText: 'This is the default: make another credential the default before deleting it.' }).waitFor();
    await row(page, 'Spare').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the credential Spare?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await row(page, 'Spare').waitFor();
    await row(page, 'Spare').getByRole('button', { name: 'Delete' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row(page, 'Spare').waitFor({ state: 'detached' });
    await page.getByText('1 credential', { exact: true }).waitFor();
  });

  it("transcribes a contact's voice note in the conversation, the transcript reaching a second admin's browser live", async () => {
    ticketId = await voiceNote(1);
    await signIn(other, b.url, ADMIN.email, ADMIN.password, `/app/tickets/${ticketId}`);
    await page.goto(`${b.url}/app/tickets/${ticketId}`);
    const voice = voices(page).first();
    await voice.getByRole('button', { name: 'Transcribe this audio' }).click();
    const transcript = voice.getByTestId('transcript');
    await transcript.getByText('Bom dia, quero saber do meu pedido (pt)').waitFor();
    expect(await transcript.locator('figcaption').textContent()).to.equal('Transcript');
    await voices(other).first().getByTestId('transcript').getByText('Bom dia, quero saber do meu pedido (pt)').waitFor();
    expect(await voices(other).first().getByRole('button', { name: 'Transcribe this audio' }).count()).to.equal(0);
    await expectAccessible(page, 'a transcribed voice note', '[data-testid="messages"]');
    await shot(page, 'transcription', '02-transcribed');
  });

  it('shows the service being down in words, and transcribes once it is back', async () => {
    fake.mode = 'server-error';
    await voiceNote(2);
    const voice = voices(page).nth(1);
    await voice.getByRole('button', { name: 'Transcribe this audio' }).click();
    await voice
      .getByTestId('transcribe-error')
      .filter({ hasText: 'Could not transcribe: The transcription service is not answering. Try again in a moment.' })
      .waitFor();
    await expectAccessible(page, 'a transcription the service refused', '[data-testid="messages"]');
    await shot(page, 'transcription', '03-down');
    fake.mode = 'ok';
    await voice.getByRole('button', { name: 'Try again' }).click();
    await voice.getByTestId('transcript').getByText('Bom dia, quero saber do meu pedido (pt)').waitFor();
    expect(await voice.getByTestId('transcribe-error').count()).to.equal(0);
  });

  it("a long audio goes to a background job: the transcript once it is done, or why it failed from the job's frame", async () => {
    await voiceNote(3);
    const voice = voices(page).nth(2);
    await voice.getByRole('button', { name: 'Transcribe this audio' }).click();
    await voice.getByTestId('transcript').getByText('Bom dia, quero saber do meu pedido (pt)').waitFor();

    // The service refuses the key the job uses: the job's frame says why.
    const { api } = await asSuper(b);
    const [credential] = (await api.get('/transcription-credentials')).body;
    expect((await api.put(`/transcription-credentials/${credential.id}`, { apiKey: 'sk-wrong-0000000000000' })).status).to.equal(200);
    await voiceNote(4);
    const refused = voices(page).nth(3);
    await refused.getByRole('button', { name: 'Transcribe this audio' }).click();
    await refused
      .getByTestId('transcribe-error')
      .filter({ hasText: 'Could not transcribe: The transcription service refused the request: check its key, model and address.' })
      .waitFor();
    expect(await refused.getByTestId('transcript').count()).to.equal(0);
  });

  it('in Spanish at a phone’s width: the transcript after a reload, and the credentials as cards', async () => {
    const { page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/tickets/${ticketId}`);
    await phone.getByLabel('Correo electrónico').fill(ADMIN.email);
    await phone.getByLabel('Contraseña').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    const transcript = voices(phone).first().getByTestId('transcript');
    await transcript.getByText('Bom dia, quero saber do meu pedido (pt)').waitFor();
    expect(await transcript.locator('figcaption').textContent()).to.equal('Transcripción');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'a transcript in Spanish at a phone’s width', '[data-testid="messages"]');

    await phone.goto(`${b.url}/app/transcription`);
    await phone.getByRole('heading', { name: 'Transcripción', level: 1 }).waitFor();
    await row(phone, 'Whisper LAN').getByText('Predeterminada').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the transcription screen in Spanish at a phone’s width');
    await phone.getByRole('button', { name: 'Editar Whisper LAN' }).click();
    await phone.getByRole('dialog', { name: 'Editar Whisper LAN' }).getByLabel('Clave de la API').waitFor();
    await expectAccessible(phone, 'the credential dialog in Spanish at a phone’s width');
    await shot(phone, 'transcription', '04-phone-es');
  });
});
