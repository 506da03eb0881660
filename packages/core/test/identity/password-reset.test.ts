import { expect } from 'chai';
import { createApplication, mailLanguage, type User } from '../../src/index.js';
import { createInMemoryPorts, RecordingMailer } from '../../src/testing.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';

/** Acme with Ana (who must change her password) and an admin; a recording mailer; the console at console.test. */
async function world(options: { mailer?: boolean } = {}) {
  const ports = createInMemoryPorts();
  const mailer = new RecordingMailer();
  const app = createApplication({ ...ports, mailer: options.mailer === false ? undefined : mailer, consoleUrl: 'https://console.test/' });
  const plan = await ports.plans.add(planFixture('Public'));
  const acme = await ports.companies.add(companyFixture(plan.id, 'Acme'));
  const passwordHash = await ports.hasher.hash('old-password');
  const add = (email: string, overrides: Partial<User> = {}) => ports.users.add(userFixture(acme.id, email, { passwordHash, ...overrides }));
  const ana = await add('ana@acme.test', { name: 'Ana Souza', mustChangePassword: true });
  await add('admin@acme.test', { profile: 'admin' });
  const ask = async (email: string, ip = '10.0.0.1', acceptLanguage?: string) => {
    await app.identity.requestPasswordReset.execute({ email, ip, acceptLanguage });
    await ports.jobs.idle();
  };
  /** The token of the newest e-mail's link. */
  const lastToken = () => {
    const mail = mailer.sent.at(-1)!;
    const link = /https:\/\/console\.test\/app\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text);
    expect(link, mail.text).to.not.equal(null);
    return decodeURIComponent(link![1]!);
  };
  const reset = (token: string, password = 'new-password-1') => app.identity.resetPassword.execute({ token, password });
  const login = (password: string, ip = '10.9.9.9') => app.identity.login.execute({ email: 'ana@acme.test', password, ip });
  return { ports, app, mailer, ana, ask, lastToken, reset, login };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? String(e),
  );

describe('Forgotten password (in-memory)', () => {
  it('e-mails a link to the console whose token sets the password, clears mustChangePassword and answers the e-mail', async () => {
    const w = await world();
    await w.ask('  ANA@acme.test ');
    expect(w.mailer.sent).to.have.length(1);
    const mail = w.mailer.sent[0]!;
    expect(mail.to).to.equal('ana@acme.test');
    expect(mail.subject).to.equal('Reset your password');
    expect(mail.text).to.contain('Hello, Ana Souza.');
    const token = w.lastToken();
    expect(Buffer.from(token, 'base64url')).to.have.length(32);
    expect(mail.html).to.contain(`href="https://console.test/app/reset-password?token=${token}"`);

    expect(await w.reset(token)).to.deep.equal({ email: 'ana@acme.test' });
    expect(await codeOf(w.login('old-password'))).to.equal('ERR_INVALID_CREDENTIALS');
    const session = await w.login('new-password-1');
    expect(session.user.mustChangePassword).to.equal(false);
  });

  it('stores only a digest of the token', async () => {
    const w = await world();
    await w.ask('ana@acme.test');
    const token = w.lastToken();
    // Looked up by the token itself, nothing is found: only its digest is kept.
    expect(await w.ports.passwordResets.take(token)).to.equal(null);
    const taken = await w.ports.passwordResets.take(w.ports.digester.digest(token));
    expect(taken?.userId).to.equal(w.ana.id);
    expect(taken?.tokenDigest).to.equal(w.ports.digester.digest(token)).and.not.equal(token);
  });

  it('uses a token once: a second use answers ERR_RESET_TOKEN_INVALID and leaves the password set by the first', async () => {
    const w = await world();
    await w.ask('ana@acme.test');
    const token = w.lastToken();
    const codes = await Promise.all([codeOf(w.reset(token, 'first-password')), codeOf(w.reset(token, 'second-password'))]);
    const winner = codes[0] === 'ok' ? 'first-password' : 'second-password';
    expect([...codes].sort()).to.deep.equal(['ERR_RESET_TOKEN_INVALID', 'ok']);
    expect(await codeOf(w.reset(token, 'third-password'))).to.equal('ERR_RESET_TOKEN_INVALID');
    expect(await codeOf(w.login(winner))).to.equal('ok');
  });

  it('answers ERR_RESET_TOKEN_INVALID for a token it never issued, and ERR_RESET_TOKEN_EXPIRED 30 minutes after the request', async () => {
    const w = await world();
    expect(await codeOf(w.reset('not-a-token'))).to.equal('ERR_RESET_TOKEN_INVALID');
    await w.ask('ana@acme.test');
    const token = w.lastToken();
    w.ports.clock.advance(30 * 60_000 - 1);
    await w.ask('admin@acme.test');
    const adminToken = w.lastToken();
    w.ports.clock.advance(1);
    expect(await codeOf(w.reset(token))).to.equal('ERR_RESET_TOKEN_EXPIRED');
    expect(await codeOf(w.login('old-password'))).to.equal('ok');
    // The admin's, asked later, still works.
    expect(await codeOf(w.reset(adminToken))).to.equal('ok');
  });

  it('replaces an earlier link by a newer one', async () => {
    const w = await world();
    await w.ask('ana@acme.test');
    const first = w.lastToken();
    await w.ask('ana@acme.test');
    const second = w.lastToken();
    expect(second).to.not.equal(first);
    expect(await codeOf(w.reset(first))).to.equal('ERR_RESET_TOKEN_INVALID');
    expect(await codeOf(w.reset(second))).to.equal('ok');
  });

  it('checks the password before using the token up: a short one is refused and the link still works', async () => {
    const w = await world();
    await w.ask('ana@acme.test');
    const token = w.lastToken();
    expect(await codeOf(w.reset(token, 'short'))).to.equal('ERR_PASSWORD_TOO_SHORT');
    expect(await codeOf(w.reset(token, 'x'.repeat(129)))).to.equal('ERR_PASSWORD_TOO_LONG');
    expect(await codeOf(w.reset(token, 'long-enough-1'))).to.equal('ok');
  });

  it('ends every session of the user: access tokens stop working and refresh tokens are revoked', async () => {
    const w = await world();
    const before = await w.login('old-password');
    await w.ask('ana@acme.test');
    await w.reset(w.lastToken());
    expect(await codeOf(w.app.identity.authenticate.execute(before.token))).to.equal('ERR_SESSION_EXPIRED');
    expect(await codeOf(w.app.identity.refreshToken.execute({ refreshToken: before.refreshToken }))).to.not.equal('ok');
    const user = await w.ports.users.findById(null, w.ana.id);
    expect(user!.tokenVersion).to.equal(w.ana.tokenVersion + 1);
  });

  it('answers an unknown e-mail exactly as a known one, and sends nothing for it', async () => {
    const w = await world();
    const known = await w.app.identity.requestPasswordReset.execute({ email: 'ana@acme.test', ip: '10.0.0.1' });
    const unknown = await w.app.identity.requestPasswordReset.execute({ email: 'ghost@acme.test', ip: '10.0.0.1' });
    expect(unknown).to.deep.equal(known);
    await w.ports.jobs.idle();
    expect(w.mailer.sent.map((m) => m.to)).to.deep.equal(['ana@acme.test']);
  });

  it('throttles requests per e-mail (three an hour) and per address (20), known e-mail or not', async () => {
    const w = await world();
    for (const email of ['ana@acme.test', 'ghost@acme.test']) {
      for (let i = 0; i < 3; i++) expect(await codeOf(w.ask(email, `10.0.1.${i}`))).to.equal('ok');
      expect(await codeOf(w.ask(email, '10.0.1.99'))).to.equal('ERR_TOO_MANY_RESET_REQUESTS');
    }
    expect(w.mailer.sent).to.have.length(3);
    const codes: string[] = [];
    for (let i = 0; i < 21; i++) codes.push(await codeOf(w.ask(`someone${i}@nowhere.test`, '10.0.2.1')));
    expect(codes.slice(0, 20).every((c) => c === 'ok')).to.equal(true);
    expect(codes[20]).to.equal('ERR_TOO_MANY_RESET_REQUESTS');
    // Login attempts keep their own counts.
    expect(await codeOf(w.login('old-password', '10.0.2.1'))).to.equal('ok');
    w.ports.clock.advance(3600_000);
    expect(await codeOf(w.ask('ana@acme.test', '10.0.2.1'))).to.equal('ok');
  });

  it('refuses with ERR_MAIL_NOT_CONFIGURED, whoever asks, when no mailer is set up', async () => {
    const w = await world({ mailer: false });
    expect(await codeOf(w.ask('ana@acme.test'))).to.equal('ERR_MAIL_NOT_CONFIGURED');
    expect(await codeOf(w.ask('ghost@acme.test'))).to.equal('ERR_MAIL_NOT_CONFIGURED');
  });

  it('writes the e-mail in the first of en, pt-BR, es that Accept-Language names', async () => {
    expect(mailLanguage(undefined)).to.equal('en');
    expect(mailLanguage('fr-FR, pt;q=0.8, es;q=0.9')).to.equal('es');
    expect(mailLanguage('pt-PT')).to.equal('pt-BR');
    expect(mailLanguage('de, fr')).to.equal('en');
    const w = await world();
    await w.ask('ana@acme.test', '10.0.0.1', 'pt-BR,pt;q=0.9,en;q=0.8');
    expect(w.mailer.sent[0]!.subject).to.equal('Redefina sua senha');
    expect(w.mailer.sent[0]!.html).to.contain('lang="pt-BR"');
    await w.ask('ana@acme.test', '10.0.0.1', 'es-MX');
    expect(w.mailer.sent[1]!.text).to.contain('Hola, Ana Souza.');
  });

  it('escapes the name in the HTML e-mail', async () => {
    const w = await world();
    const u = (await w.ports.users.findById(null, w.ana.id))!;
    u.name = '<b>Ana</b> & "Co"';
    await w.ports.users.update(u);
    await w.ask('ana@acme.test');
    expect(w.mailer.sent[0]!.html).to.contain('&lt;b&gt;Ana&lt;/b&gt; &amp; &quot;Co&quot;');
    expect(w.mailer.sent[0]!.html).to.not.contain('<b>Ana</b>');
  });
});
