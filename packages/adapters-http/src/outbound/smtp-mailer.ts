import type { MailMessage, Mailer } from '@servicedesk/core';
import nodemailer, { type Transporter } from 'nodemailer';

/** Where and how to send e-mail (the `SMTP_*` variables). */
export interface SmtpSettings {
  readonly host: string;
  readonly port: number;
  /** TLS from the first byte (port 465); false: plain, upgraded with STARTTLS when the server offers it. */
  readonly secure: boolean;
  /** Login, when the server asks for one (both or neither). */
  readonly user?: string;
  readonly password?: string;
  /** The sender: an address, or `Name <address>`. */
  readonly from: string;
  /** Gives up a connection, greeting or reply after this (default 10 s), so a dead server fails the send rather than holding it. */
  readonly timeoutMs?: number;
}

/**
 * Sends e-mail through an SMTP server with nodemailer: a connection per message (reset e-mails
 * are rare, and nothing stays open at shutdown), plain text with an HTML alternative, the sender
 * of the settings. A refusal or an unreachable server throws.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly settings: SmtpSettings) {
    const timeout = settings.timeoutMs ?? 10_000;
    this.transport = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.secure,
      auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.settings.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
  }
}
