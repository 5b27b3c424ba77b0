/**
 * Malformed posts to the signed-out pages' server actions (forgot password, sign-in, set-up) on
 * the production build: bodies that are not forms, broken multipart bodies, calls whose arguments
 * are not the action's form, fields with NUL bytes, lone surrogates and 80 digits. Each is
 * answered 4xx or the page with its message (proxy.ts and lib/security/posted-form.ts), never 500.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@/lib/users';
import { startTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant } from './support/merchants';

let gateway: TestGateway;
const pages: string[] = ['/dashboard/forgot-password', '/dashboard/sign-in'];

beforeAll(async () => {
  gateway = await startTestGateway();
  const { merchantId } = await createTestMerchant(gateway.db, 'Garbage shop');
  const { link } = await createUser(gateway.db, {
    merchant: merchantId,
    email: 'garbage@shop.example',
    role: 'viewer',
  });
  pages.push(new URL(link!.url).pathname);
});
afterAll(async () => {
  await gateway?.close();
});

/** A page's form action id: its `$ACTION_ID_<id>` field, or the id in its `$ACTION_n:0` field (a form with state). */
async function actionIdOf(path: string): Promise<string> {
  const page = await (await fetch(`${gateway.baseUrl}${path}`)).text();
  const plain = /name="\$ACTION_ID_([0-9a-f]+)"/.exec(page)?.[1];
  if (plain) return plain;
  const encoded = /name="\$ACTION_\d+:0" value="([^"]+)"/.exec(page)![1]!.replaceAll('&quot;', '"');
  return (JSON.parse(encoded) as { id: string }).id;
}

const multipart = (parts: [string, string][]) =>
  parts.map(([name, value]) => `--x\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('') +
  '--x--\r\n';
const MULTIPART = 'multipart/form-data; boundary=x';

it('answers every malformed post to a signed-out page action with a 4xx or the page, never 500', async () => {
  const failed: string[] = [];
  for (const path of pages) {
    const id = await actionIdOf(path);
    const script = { 'next-action': id, accept: 'text/x-component' };
    const cases: [string, string, Record<string, string>][] = [
      ['text', 'garbage\u0000', { ...script, 'content-type': 'text/plain;charset=UTF-8' }],
      ['json', '{"email":1}', { ...script, 'content-type': 'application/json' }],
      ['arguments', '["x",{"email":"a@b.c"}]', { ...script, 'content-type': 'text/plain;charset=UTF-8' }],
      ['no argument', '[]', { ...script, 'content-type': 'text/plain;charset=UTF-8' }],
      ['reference', '["$K1"]', { ...script, 'content-type': 'text/plain;charset=UTF-8' }],
      ['urlencoded', 'email=%ZZ&%00', { ...script, 'content-type': 'application/x-www-form-urlencoded' }],
      ['no type', 'garbage', script],
      ['broken multipart', '--x\r\ngarbage', { ...script, 'content-type': MULTIPART }],
      ['not a form', multipart([['0', '["x","y"]']]), { ...script, 'content-type': MULTIPART }],
      ['bad reference', multipart([['0', '[{},"$K9"]']]), { ...script, 'content-type': MULTIPART }],
      ['no arguments', multipart([['0', '"garbage"']]), { ...script, 'content-type': MULTIPART }],
      // Odd fields in both shapes of call: with the form's state (sign-in, set-up) and without (forgot password).
      ...(['[{},"$K1"]', '["$K1"]'].map((args): [string, string, Record<string, string>] => [
        `odd fields ${args}`,
        multipart([
          ['1_email', `a\u0000${'9'.repeat(80)}@shop.example`],
          ['1_password', '\ud800\u0000'],
          ['1_confirm', '\ud800\u0000'],
          ['1_token', '\u0000'],
          ['0', args],
        ]),
        { ...script, 'content-type': MULTIPART },
      ]) as [string, string, Record<string, string>][]),
      [
        'form without script',
        multipart([
          [`$ACTION_ID_${id}`, ''],
          ['email', '%ZZ\u0000'],
        ]),
        { 'content-type': MULTIPART },
      ],
      ['broken form without script', '--x\r\ngarbage', { 'content-type': MULTIPART }],
    ];
    for (const [name, body, headers] of cases) {
      const answer = await fetch(`${gateway.baseUrl}${path}`, {
        method: 'POST',
        body,
        headers: { origin: gateway.baseUrl, ...headers },
        redirect: 'manual',
      });
      await answer.text();
      if (answer.status >= 500) failed.push(`${path}: ${name}: ${answer.status}`);
    }
  }
  expect(failed).toEqual([]);
});
