/** One e-mail: plain text for every reader, a simple HTML alternative for those that show it. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * Sends e-mail (an SMTP server in production). Absent when the deployment configured none: the
 * features that need it say so (`ERR_MAIL_NOT_CONFIGURED`) instead of pretending to send.
 */
export interface Mailer {
  /** Resolves once the server accepted the message; throws when it refused it or could not be reached. */
  send(message: MailMessage): Promise<void>;
}
