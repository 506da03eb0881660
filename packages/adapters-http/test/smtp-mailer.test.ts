import { expect } from 'chai';
import { SmtpMailer } from '../src/index.js';
import { startSmtpCatcher, type SmtpCatcher } from './support/smtp-catcher.js';

describe('SmtpMailer (against a loopback SMTP catcher)', () => {
  let catcher: SmtpCatcher;
  before(async () => {
    catcher = await startSmtpCatcher();
  });
  after(async () => {
    await catcher.close();
  });

  it('sends plain text with an HTML alternative from the configured sender, text of any script intact', async () => {
    const mailer = new SmtpMailer({ host: catcher.host, port: catcher.port, secure: false, from: 'Service Desk <no-reply@desk.test>' });
    const already = catcher.mails.length;
    const link = `https://console.test/app/reset-password?token=${'A_b-9'.repeat(9)}`;
    await mailer.send({
      to: 'ana@acme.test',
      subject: 'Redefina sua senha — ação necessária',
      text: `Olá, Ana.\n${link}\n你好 🙂\n`,
      html: `<p>Olá, Ana.</p><p><a href="${link}">Escolher</a></p>`,
    });
    const mail = await catcher.next('ana@acme.test', already);
    expect(mail.from).to.equal('no-reply@desk.test');
    expect(mail.raw).to.match(/^From: Service Desk <no-reply@desk\.test>/m);
    expect(mail.subject).to.equal('Redefina sua senha — ação necessária');
    expect(mail.text).to.contain('Olá, Ana.').and.contain('你好 🙂').and.contain(link);
    expect(mail.html).to.contain(`<a href="${link}">Escolher</a>`);
    expect(mail.user).to.equal(null);
  });

  it('logs in when a user is configured', async () => {
    const mailer = new SmtpMailer({ host: catcher.host, port: catcher.port, secure: false, user: 'desk', password: 'secret', from: 'no-reply@desk.test' });
    const already = catcher.mails.length;
    await mailer.send({ to: 'bia@acme.test', subject: 'Hi', text: 'Hello', html: '<p>Hello</p>' });
    expect((await catcher.next('bia@acme.test', already)).user).to.equal('desk');
  });

  it('throws when the server refuses the message, and when no server answers', async () => {
    const mailer = new SmtpMailer({ host: catcher.host, port: catcher.port, secure: false, from: 'no-reply@desk.test' });
    catcher.refuse = true;
    try {
      const refused = await mailer.send({ to: 'ana@acme.test', subject: 'x', text: 'x', html: 'x' }).then(
        () => null,
        (e: Error) => e,
      );
      expect(refused?.message).to.match(/550/);
    } finally {
      catcher.refuse = false;
    }
    const closed = await startSmtpCatcher();
    await closed.close();
    const nowhere = new SmtpMailer({ host: closed.host, port: closed.port, secure: false, from: 'no-reply@desk.test', timeoutMs: 2000 });
    const unreachable = await nowhere.send({ to: 'ana@acme.test', subject: 'x', text: 'x', html: 'x' }).then(
      () => null,
      (e: Error) => e,
    );
    expect(unreachable).to.be.instanceOf(Error);
  });
});
