import { startSmtpCatcher, resetLinkIn, type SmtpCatcher } from '@servicedesk/adapters-http/test-support/smtp-catcher';
import { expect } from 'chai';
import { ADMIN, client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;

describe('HTTP: forgotten password (SMTP to a loopback catcher)', () => {
  let catcher: SmtpCatcher;
  let b: TestBackend;
  before(async () => {
    catcher = await startSmtpCatcher();
    b = await startTestBackend({
      SMTP_HOST: catcher.host,
      SMTP_PORT: String(catcher.port),
      SMTP_FROM: 'Service Desk <no-reply@desk.test>',
      CONSOLE_URL: 'https://console.test',
    });
  });
  after(async () => {
    await b?.close();
    await catcher?.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('answers 202 alike for a known and an unknown e-mail, e-mails the known one a console link that sets the password once', async () => {
    const { admin } = await newCompanyWithAdmin(b);
    const session = await login(b.url, admin.email, 'admin-password-1');
    const already = catcher.mails.length;
    const known = await client(b.url).post('/auth/forgot-password', { email: admin.email.toUpperCase() });
    const unknown = await client(b.url).post('/auth/forgot-password', { email: 'ghost@nowhere.test' });
    expect(known.status).to.equal(202);
    expect(unknown.status).to.equal(202);
    expect(unknown.body).to.deep.equal(known.body);

    const mail = await catcher.next(admin.email, already);
    expect(mail.subject).to.equal('Reset your password');
    const link = resetLinkIn(mail);
    expect(link.startsWith('https://console.test/app/reset-password?token=')).to.equal(true);
    expect(mail.html).to.contain(link);

    const reset = await client(b.url).post('/auth/reset-password', { token: tokenOf(link), password: 'brand-new-pass' });
    expect(reset.status).to.equal(200);
    expect(reset.body).to.deep.equal({ email: admin.email });
    // Every earlier session ended; the new password signs in, the old one does not.
    expect((await client(b.url, session.token).get('/auth/me')).status).to.equal(401);
    expect((await client(b.url).post('/auth/login', { email: admin.email, password: 'admin-password-1' })).status).to.equal(401);
    expect((await client(b.url).post('/auth/login', { email: admin.email, password: 'brand-new-pass' })).status).to.equal(200);
    // Used once.
    const again = await client(b.url).post('/auth/reset-password', { token: tokenOf(link), password: 'another-pass-1' });
    expect(again.status).to.equal(422);
    expect(again.body).to.deep.equal({ error: 'ERR_RESET_TOKEN_INVALID' });
    // The unknown e-mail got nothing: the only messages since are the admin's.
    expect(catcher.mails.slice(already).flatMap((m) => m.to)).to.deep.equal([admin.email]);
  });

  it("writes the e-mail in the request's language", async () => {
    const already = catcher.mails.length;
    const res = await client(b.url).post('/auth/forgot-password', { email: ADMIN.email }, { 'accept-language': 'es-ES,es;q=0.9' });
    expect(res.status).to.equal(202);
    const mail = await catcher.next(ADMIN.email, already);
    expect(mail.subject).to.equal('Restablece tu contraseña');
    expect(mail.text).to.contain('caduca en 30 minutos');
  });

  it('refuses a short password without using the token, and an unknown token with 422', async () => {
    const already = catcher.mails.length;
    await client(b.url).post('/auth/forgot-password', { email: ADMIN.email });
    const token = tokenOf(resetLinkIn(await catcher.next(ADMIN.email, already)));
    const short = await client(b.url).post('/auth/reset-password', { token, password: 'short' });
    expect(short.status).to.equal(422);
    expect(short.body).to.deep.equal({ error: 'ERR_PASSWORD_TOO_SHORT' });
    const unknown = await client(b.url).post('/auth/reset-password', { token: 'x'.repeat(43), password: 'long-enough-1' });
    expect(unknown.body).to.deep.equal({ error: 'ERR_RESET_TOKEN_INVALID' });
    expect((await client(b.url).post('/auth/reset-password', { token, password: 'long-enough-1' })).status).to.equal(200);
  });

  it('throttles requests per e-mail with 429 and Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await client(b.url).post('/auth/forgot-password', { email: 'ghost@nowhere.test' })).status).to.equal(202);
    const blocked = await client(b.url).post('/auth/forgot-password', { email: 'ghost@nowhere.test' });
    expect(blocked.status).to.equal(429);
    expect(blocked.body).to.deep.equal({ error: 'ERR_TOO_MANY_RESET_REQUESTS' });
    expect(Number(blocked.headers.get('retry-after'))).to.be.greaterThan(0);
  });
});

describe('HTTP: forgotten password without SMTP', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b?.close();
  });

  it('answers 503 ERR_MAIL_NOT_CONFIGURED, for any e-mail', async () => {
    await b.reset();
    for (const email of [ADMIN.email, 'ghost@nowhere.test']) {
      const res = await client(b.url).post('/auth/forgot-password', { email });
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({ error: 'ERR_MAIL_NOT_CONFIGURED' });
    }
  });
});
