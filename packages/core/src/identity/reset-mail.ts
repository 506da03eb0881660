import type { MailMessage } from '../shared/mailer.js';

/** The languages the reset e-mail is written in. */
export const MAIL_LANGUAGES = ['en', 'pt-BR', 'es'] as const;
export type MailLanguage = (typeof MAIL_LANGUAGES)[number];

/**
 * The language of an `Accept-Language` header among the e-mail's: the first tag (by quality, then
 * order) that is one of them or shares its primary language (`pt-PT` reads pt-BR, `es-MX` es);
 * English when none does.
 */
export function mailLanguage(acceptLanguage: string | undefined): MailLanguage {
  const tags = (acceptLanguage ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((t) => t.tag && t.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of tags) {
    const primary = tag.split('-')[0];
    if (primary === 'pt') return 'pt-BR';
    if (primary === 'es') return 'es';
    if (primary === 'en') return 'en';
  }
  return 'en';
}

const TEXTS: Record<MailLanguage, { subject: string; hello: (name: string) => string; body: string; action: string; expiry: string; ignore: string }> = {
  en: {
    subject: 'Reset your password',
    hello: (name) => `Hello, ${name}.`,
    body: 'Someone asked to reset the password of your account. To choose a new password, open this link:',
    action: 'Choose a new password',
    expiry: 'The link works once and expires in 30 minutes.',
    ignore: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  },
  'pt-BR': {
    subject: 'Redefina sua senha',
    hello: (name) => `Olá, ${name}.`,
    body: 'Alguém pediu para redefinir a senha da sua conta. Para escolher uma nova senha, abra este link:',
    action: 'Escolher uma nova senha',
    expiry: 'O link funciona uma única vez e expira em 30 minutos.',
    ignore: 'Se você não pediu isso, ignore este e-mail: sua senha continua a mesma.',
  },
  es: {
    subject: 'Restablece tu contraseña',
    hello: (name) => `Hola, ${name}.`,
    body: 'Alguien pidió restablecer la contraseña de tu cuenta. Para elegir una contraseña nueva, abre este enlace:',
    action: 'Elegir una contraseña nueva',
    expiry: 'El enlace funciona una sola vez y caduca en 30 minutos.',
    ignore: 'Si no lo pediste, ignora este correo: tu contraseña no cambia.',
  },
};

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** The reset e-mail to `to`, with the link, in plain text and simple HTML. */
export function resetMail(input: { to: string; name: string; link: string; language: MailLanguage }): MailMessage {
  const t = TEXTS[input.language];
  const text = [t.hello(input.name), '', t.body, input.link, '', t.expiry, t.ignore, ''].join('\n');
  const html = `<!doctype html>
<html lang="${input.language}">
<body style="font-family: sans-serif; line-height: 1.5">
<p>${escapeHtml(t.hello(input.name))}</p>
<p>${escapeHtml(t.body)}</p>
<p><a href="${escapeHtml(input.link)}">${escapeHtml(t.action)}</a></p>
<p style="word-break: break-all">${escapeHtml(input.link)}</p>
<p>${escapeHtml(t.expiry)}<br>${escapeHtml(t.ignore)}</p>
</body>
</html>
`;
  return { to: input.to, subject: t.subject, text, html };
}
