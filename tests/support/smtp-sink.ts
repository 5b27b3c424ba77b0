import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps every message it accepts,
 * for tests of the mailer. `answer` decides the reply to each message's data: accept (250), a
 * temporary refusal (451), a permanent one (550), or hold it until the test lets it go (the
 * kill -9 tests).
 */
export interface ReceivedMail {
  envelopeTo: string[];
  raw: string;
  headers: Map<string, string>;
  /** The decoded text/plain and text/html parts. */
  text: string;
  html: string;
}

export type SinkAnswer = 'accept' | 'temporary' | 'permanent';

export interface SmtpSink {
  /** smtp://127.0.0.1:port, without credentials (any are accepted). */
  url: string;
  received: ReceivedMail[];
  /** Sets the answer to the next messages (default accept). */
  answer: (decide: (raw: string) => SinkAnswer | Promise<SinkAnswer>) => void;
  /**
   * Called once a message is kept, before its 250 is written, and awaited: a kill -9 test kills
   * the sender there and waits for it to die, so the sender cannot record the send first (after
   * the 250 it could, on a machine that ran it before the test's kill).
   */
  onAccepted: (listener: ((mail: ReceivedMail) => void | Promise<void>) | null) => void;
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let decide: (raw: string) => SinkAnswer | Promise<SinkAnswer> = () => 'accept';
  let accepted: ((mail: ReceivedMail) => void | Promise<void>) | null = null;
  const server = new SMTPServer({
    authOptional: true,
    // Plain connections on loopback only; the test's credentials prove that none reaches a log.
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username });
    },
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        void Promise.resolve(decide(raw)).then(async (answer) => {
          if (answer === 'accept') {
            const mail = { envelopeTo: session.envelope.rcptTo.map((r) => r.address), raw, ...parseMessage(raw) };
            received.push(mail);
            await accepted?.(mail);
            callback();
          } else {
            const error = Object.assign(new Error(answer === 'temporary' ? 'try again later' : 'no such user'), {
              responseCode: answer === 'temporary' ? 451 : 550,
            });
            callback(error);
          }
        });
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    answer: (next) => {
      decide = next;
    },
    onAccepted: (listener) => {
      accepted = listener;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** RFC 2047 encoded words (what nodemailer writes for non-ASCII header text). */
export function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, encoding: string, data: string) =>
      encoding.toLowerCase() === 'b'
        ? Buffer.from(data, 'base64').toString('utf8')
        : decodeQuotedPrintable(data.replace(/_/g, ' ')),
    );
}

function decodeQuotedPrintable(value: string): string {
  const bytes: number[] = [];
  const text = value.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '=' && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(...Buffer.from(text[i]!, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Splits a message (or a part) into its unfolded headers, lower-cased names, and its body. */
function split(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: end < 0 ? '' : raw.slice(end + 4) };
}

/** The headers and the decoded text and HTML parts of a message as nodemailer writes it. */
export function parseMessage(raw: string): { headers: Map<string, string>; text: string; html: string } {
  const { headers, body } = split(raw);
  const found = { text: '', html: '' };
  const walk = (partHeaders: Map<string, string>, partBody: string) => {
    const type = partHeaders.get('content-type') ?? 'text/plain';
    const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
    if (type.startsWith('multipart/') && boundary) {
      for (const part of partBody.split(`--${boundary}`).slice(1)) {
        if (part.startsWith('--')) break;
        const inner = split(part.replace(/^\r\n/, ''));
        walk(inner.headers, inner.body);
      }
      return;
    }
    const encoding = (partHeaders.get('content-transfer-encoding') ?? '7bit').toLowerCase();
    const decoded =
      encoding === 'base64'
        ? Buffer.from(partBody.replace(/\s+/g, ''), 'base64').toString('utf8')
        : encoding === 'quoted-printable'
          ? decodeQuotedPrintable(partBody)
          : partBody;
    if (type.startsWith('text/plain')) found.text = decoded;
    else if (type.startsWith('text/html')) found.html = decoded;
  };
  walk(headers, body);
  return { headers, ...found };
}
