import { SMTPServer } from 'smtp-server';

/** One message the catcher accepted: its envelope, headers and decoded text and HTML parts. */
export interface CaughtMail {
  readonly from: string;
  readonly to: string[];
  readonly user: string | null;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly raw: string;
}

/** A loopback SMTP server for tests: accepts every message (with or without a login), keeps it, and tells waiters. */
export interface SmtpCatcher {
  readonly host: string;
  readonly port: number;
  readonly mails: CaughtMail[];
  /** The first message to `to` after the `already` first ones (default: any), once it arrives. */
  next(to: string, already?: number, ms?: number): Promise<CaughtMail>;
  /** Refuses the next messages with a 550 until set back to false. */
  refuse: boolean;
  close(): Promise<void>;
}

/** The first reset link in a message's text. */
export function resetLinkIn(mail: CaughtMail): string {
  const link = /https?:\/\/\S+\/app\/reset-password\?token=[A-Za-z0-9_%-]+/.exec(mail.text);
  if (!link) throw new Error(`no reset link in: ${mail.text}`);
  return link[0];
}

function decode(body: string, encoding: string): string {
  const e = encoding.toLowerCase();
  if (e === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (e === 'quoted-printable') {
    const joined = body.replace(/=\r?\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < joined.length; i++) {
      const hex = joined.slice(i + 1, i + 3);
      if (joined[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
        bytes.push(Number.parseInt(hex, 16));
        i += 2;
      } else bytes.push(...Buffer.from(joined[i]!, 'utf8'));
    }
    return Buffer.from(bytes).toString('utf8');
  }
  return body;
}

function headersOf(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** Subject (RFC 2047 words decoded) and the text/plain and text/html parts of a (multipart/alternative) message. */
function parse(raw: string): { subject: string; text: string; html: string } {
  const split = raw.search(/\r?\n\r?\n/);
  const head = headersOf(raw.slice(0, split));
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const subject = (head.get('subject') ?? '').replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, kind: string, word: string) =>
    kind.toUpperCase() === 'B' ? Buffer.from(word, 'base64').toString('utf8') : decode(word.replace(/_/g, ' '), 'quoted-printable'),
  );
  const parts: Array<{ type: string; content: string }> = [];
  const boundary = /boundary="?([^";]+)"?/i.exec(head.get('content-type') ?? '')?.[1];
  if (boundary) {
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const at = chunk.search(/\r?\n\r?\n/);
      const h = headersOf(chunk.slice(0, at));
      parts.push({
        type: h.get('content-type') ?? '',
        content: decode(chunk.slice(at).replace(/^\r?\n\r?\n/, ''), h.get('content-transfer-encoding') ?? '7bit'),
      });
    }
  } else parts.push({ type: head.get('content-type') ?? 'text/plain', content: decode(body, head.get('content-transfer-encoding') ?? '7bit') });
  const of = (type: string) => parts.find((p) => p.type.toLowerCase().startsWith(type))?.content ?? '';
  return { subject, text: of('text/plain'), html: of('text/html') };
}

/** Starts a catcher on 127.0.0.1 (a free port); logins are accepted whatever they are, and recorded. */
export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const mails: CaughtMail[] = [];
  const waiters = new Set<() => void>();
  const state = { refuse: false };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (state.refuse) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelope = session.envelope;
        mails.push({
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : null,
          raw,
          ...parse(raw),
        });
        for (const wake of [...waiters]) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    host: '127.0.0.1',
    port,
    mails,
    get refuse() {
      return state.refuse;
    },
    set refuse(value: boolean) {
      state.refuse = value;
    },
    next(to: string, already = 0, ms = 10_000) {
      const find = () => mails.slice(already).find((m) => m.to.includes(to));
      return new Promise<CaughtMail>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no e-mail to ${to} within ${ms} ms (caught: ${mails.map((m) => m.to.join(',')).join('; ') || 'none'})`));
        }, ms);
        const check = () => {
          const found = find();
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
