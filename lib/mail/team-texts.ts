/**
 * The team's mails as they are sent (docs/mail.md "Team mail", docs/decisions/065 and 074):
 * subject, plain text and HTML. English: the dashboard has no other language yet, and a team mail
 * follows the recipient's dashboard language. Every inserted value is escaped in the HTML; nothing
 * is loaded from elsewhere. Pure: unit-tested in team-texts.test.ts.
 */
import { escapeHtml, type ComposedMail } from './compose';

export type TeamMailInput =
  | {
      kind: 'password-reset';
      /** The one-time link. */
      link: string;
      /** How long the link works, in minutes. */
      lifetimeMinutes: number;
    }
  | {
      kind: 'invitation';
      merchantName: string;
      role: string;
      /** The inviter's address, so that the invitee can answer them. */
      inviter: string | null;
      /** The link that accepts the invitation; null when the address has an account already (it is offered to join by answering). */
      link: string | null;
      lifetimeHours: number;
    }
  | {
      kind: 'new-device';
      merchantName: string;
      /** ISO 8601 UTC. */
      at: string;
      ip: string | null;
      userAgent: string | null;
      /** The account page, where sessions are ended and the password changed. */
      accountPage: string;
    }
  | {
      kind: 'webhooks-failing';
      merchantName: string;
      endpointUrl: string;
      /** ISO 8601 UTC: the first failed attempt of the incident. */
      failingSince: string;
      endpointsPage: string;
    }
  | {
      kind: 'daily-summary';
      merchantName: string;
      /** YYYY-MM-DD (UTC). */
      day: string;
      /** Orders created that day by status. */
      orders: { status: string; count: number }[];
      /** Amounts received that day by coin, already formatted as decimal strings. */
      received: { coin: string; amount: string }[];
      overviewPage: string;
    };

interface Texts {
  subject: string;
  paragraphs: string[];
  /** A list shown as a table: label, value. */
  facts?: [string, string][];
  button?: { label: string; link: string };
  after: string[];
}

function textsOf(input: TeamMailInput): Texts {
  switch (input.kind) {
    case 'password-reset':
      return {
        subject: 'Reset your dashboard password',
        paragraphs: [
          'Someone, probably you, asked to reset the password of the dashboard account of this address.',
          `Choose a new password here (the link works once, for ${input.lifetimeMinutes} minutes):`,
        ],
        button: { label: 'Choose a new password', link: input.link },
        after: [
          'Setting a new password signs the account out everywhere else.',
          'If you did not ask for this, ignore this e-mail: your password stays as it is.',
        ],
      };
    case 'invitation': {
      const by = input.inviter ? ` by ${input.inviter}` : '';
      const invited = `You are invited${by} to join the dashboard team of ${input.merchantName} as ${input.role}.`;
      if (input.link)
        return {
          subject: `Join ${input.merchantName} on the payment dashboard`,
          paragraphs: [
            invited,
            `Choose your password here to accept (the link works once, for ${input.lifetimeHours} hours):`,
          ],
          button: { label: 'Accept and choose a password', link: input.link },
          after: ['If you do not know why you got this, ignore it: nothing happens unless you open the link.'],
        };
      return {
        subject: `Join ${input.merchantName} on the payment dashboard`,
        paragraphs: [
          invited,
          'This address already has a dashboard account, with another team, and an address belongs to one team.',
          'To join, answer the person who invited you with another address of yours: they can invite that one. Nobody was told that this address has an account.',
        ],
        after: ['If you do not know why you got this, ignore it: your account stays as it is.'],
      };
    }
    case 'new-device':
      return {
        subject: 'New sign-in to your dashboard account',
        paragraphs: [
          `Your dashboard account at ${input.merchantName} was signed in to from a browser it had not used before.`,
        ],
        facts: [
          ['When (UTC)', input.at],
          ['Client address', input.ip ?? 'unknown'],
          ['Browser', input.userAgent ?? 'unknown'],
        ],
        button: { label: 'Review your account', link: input.accountPage },
        after: [
          'If this was you, there is nothing to do.',
          'If it was not, change your password on your account page (it signs the account out everywhere else) and turn on two-factor.',
        ],
      };
    case 'webhooks-failing':
      return {
        subject: `Webhooks of ${input.merchantName} have been failing for an hour`,
        paragraphs: [
          'Every delivery to this webhook endpoint has failed for an hour. The gateway keeps retrying; this is the only mail about this incident.',
        ],
        facts: [
          ['Endpoint', input.endpointUrl],
          ['Failing since (UTC)', input.failingSince],
        ],
        button: { label: 'See the deliveries', link: input.endpointsPage },
        after: ['An endpoint that keeps failing is disabled after some days: check that your server answers 2xx.'],
      };
    case 'daily-summary': {
      const orders = input.orders.reduce((sum, row) => sum + row.count, 0);
      return {
        subject: `${input.merchantName}: ${orders} orders on ${input.day}`,
        paragraphs: [`Orders created on ${input.day} (UTC) and the amounts received for them.`],
        facts: [
          ...input.orders.map((row): [string, string] => [`Orders ${row.status}`, String(row.count)]),
          ...input.received.map((row): [string, string] => [`Received in ${row.coin}`, row.amount]),
        ],
        button: { label: 'Open the overview', link: input.overviewPage },
        after: ['Turn this summary off in the dashboard settings.'],
      };
    }
  }
}

/** A team mail's subject, plain text and HTML. Pure. */
export function composeTeamMail(input: TeamMailInput): ComposedMail {
  const t = textsOf(input);
  const facts = t.facts ?? [];
  const text = [
    ...t.paragraphs,
    ...(facts.length ? ['', ...facts.map(([label, value]) => `${label}: ${value}`)] : []),
    ...(t.button ? ['', t.button.link] : []),
    '',
    ...t.after,
    '',
  ].join('\n');
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(t.subject)}</title></head>
<body style="margin:0;padding:16px;background:#f4f4f5;color:#18181b;font-family:system-ui,sans-serif">
<table role="presentation" style="max-width:560px;width:100%;margin:0 auto;background:#fff;border-radius:8px;padding:16px">
<tr><td>
<h1 style="font-size:20px;margin:0 0 8px">${escapeHtml(t.subject)}</h1>
${t.paragraphs.map((line) => `<p style="margin:0 0 12px">${escapeHtml(line)}</p>`).join('\n')}
${
  facts.length
    ? `<table style="border-collapse:collapse;margin:0 0 12px">${facts
        .map(
          ([label, value]) =>
            `<tr><th scope="row" style="padding:4px 8px 4px 0;text-align:start;font-weight:normal;color:#555">${escapeHtml(label)}</th><td style="padding:4px 0;word-break:break-all">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`
    : ''
}
${t.button ? `<p><a href="${escapeHtml(t.button.link)}" style="display:inline-block;padding:10px 16px;background:#1f4fd1;color:#fff;text-decoration:none;border-radius:6px">${escapeHtml(t.button.label)}</a></p>` : ''}
${t.after.map((line) => `<p style="margin:0 0 12px;font-size:14px;color:#555">${escapeHtml(line)}</p>`).join('\n')}
</td></tr>
</table>
</body>
</html>
`;
  return { subject: t.subject, text, html };
}
