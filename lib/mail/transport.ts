import 'server-only';
/**
 * Where a message goes: the SMTP server of SMTP_URL through nodemailer, or the built-in catcher
 * (no SMTP_URL, and test mode's orders unless MAIL_TEST_MODE=send), which sends nothing: the outbox row keeps the
 * message and the dashboard's Mail page shows it as it would arrive. The message reaches nodemailer
 * with file and URL access off: only the logo's data: URL is attached, nothing is fetched.
 */
import nodemailer from 'nodemailer';
import type { Mode } from '../protocol';
import { LOGO_CID } from './compose';
import type { RenderedMail } from './render';

export interface MailTransport {
  /** Resolves once the server accepted the message (its 250 to the data). */
  send(mail: RenderedMail): Promise<void>;
  close(): void;
}

/** The SMTP transport of `url` (smtp:// or smtps://, credentials inside: never logged). */
export function smtpTransport(url: string, timeoutMs: number): MailTransport {
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return {
    async send(mail) {
      await transporter.sendMail({
        from: mail.from,
        to: mail.to,
        replyTo: mail.replyTo,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        headers: mail.headers,
        attachments: mail.logo ? [{ path: mail.logo, cid: LOGO_CID, filename: logoFileName(mail.logo) }] : [],
        disableFileAccess: true,
        disableUrlAccess: true,
      });
    },
    close: () => transporter.close(),
  };
}

/** The inline logo's file name, by its type: some clients choose how to show an attachment by its extension. */
export function logoFileName(logo: string): string {
  return logo.startsWith('data:image/jpeg') ? 'logo.jpg' : 'logo.png';
}

/** Which transport a message of `mode` takes: test mode's the catcher unless MAIL_TEST_MODE=send. */
export function transportFor(mode: Mode, smtp: MailTransport | null, sendTestMode: boolean): 'smtp' | 'catcher' {
  return smtp && (mode === 'live' || sendTestMode) ? 'smtp' : 'catcher';
}
