/**
 * Client addresses behind a reverse proxy (TRUSTED_PROXIES, docs/production.md "Forwarded
 * headers"), on the production build over real HTTP from distinct loopback addresses: the
 * dashboard's sign-in limits and audit log see the client a trusted proxy forwarded, each
 * IPv6 client as its /64, and a client that sends its own X-Forwarded-For, directly or through the
 * proxy, earns nothing by it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createUser } from '@/lib/users';
import { startTestGateway, type TestGateway } from './support/gateway';
import { createTestMerchant } from './support/merchants';
import { callServerAction } from './support/server-action';

/** The reverse proxy's address, and a client that reaches the gateway directly. */
const PROXY = '127.0.0.9';
const DIRECT = '127.0.0.2';
const PASSWORD = 'a-long-enough-passphrase';

let gateway: TestGateway;
let actionId: string;
let merchantId: string;

beforeAll(async () => {
  process.env.TRUSTED_PROXIES = PROXY;
  gateway = await startTestGateway();
  merchantId = (await createTestMerchant(gateway.db, 'Proxied shop')).merchantId;
  const page = await (await fetch(`${gateway.baseUrl}/dashboard/sign-in`)).text();
  const encoded = /name="\$ACTION_\d+:0" value="([^"]+)"/.exec(page)![1]!.replaceAll('&quot;', '"');
  actionId = (JSON.parse(encoded) as { id: string }).id;
});
afterAll(async () => {
  await gateway?.close();
});

let counter = 0;
async function account() {
  const email = `proxied${++counter}-${Date.now()}@shop.example`;
  return (await createUser(gateway.db, { merchant: merchantId, email, role: 'viewer', password: PASSWORD })).user;
}

/** Signs in through the sign-in form's action from `from`, with `forwardedFor` as X-Forwarded-For. */
async function signIn(email: string, password: string, from: string, forwardedFor?: string) {
  const answer = await callServerAction(
    `${gateway.baseUrl}/dashboard/sign-in`,
    actionId,
    { email, password },
    { from, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} },
  );
  expect(answer.status).toBe(200);
  if (answer.headers['x-action-redirect']) return 'signed in';
  return /(Too many attempts|Wrong e-mail address or password)/.exec(answer.body)?.[1] ?? answer.body;
}

async function auditedAddresses(userId: string): Promise<string[]> {
  const rows = await gateway.db.query<{ ip: string }>(
    'select ip from audit_log where user_id = $1 order by created_at, id',
    [userId],
  );
  return rows.map((r) => r.ip);
}

it('counts each client a trusted proxy forwarded on its own, and records its address', async () => {
  const u = await account();
  for (let i = 0; i < 4; i++)
    expect(await signIn(u.email, 'wrong password!', PROXY, '203.0.113.5')).toBe('Wrong e-mail address or password');
  expect(await signIn(u.email, 'wrong password!', PROXY, '203.0.113.5')).toBe('Too many attempts');
  expect(await signIn(u.email, PASSWORD, PROXY, '203.0.113.5')).toBe('Too many attempts');
  // Another client behind the same proxy: its own count.
  expect(await signIn(u.email, PASSWORD, PROXY, '203.0.113.6')).toBe('signed in');
  expect(await auditedAddresses(u.id)).toEqual([...Array(5).fill('203.0.113.5'), '203.0.113.6']);
});

it('reads X-Forwarded-For only through the trusted proxy: what a client wrote itself earns nothing', async () => {
  // One account each, so that neither spends the other's budget of ten password checks at once.
  const direct = await account();
  // Directly, with a forged header: counted as the connection's address, whatever it claims.
  for (let i = 0; i < 5; i++) await signIn(direct.email, 'wrong password!', DIRECT, `198.51.100.${i}`);
  expect(await signIn(direct.email, PASSWORD, DIRECT, '198.51.100.99')).toBe('Too many attempts');
  const proxied = await account();
  // Through the proxy, with the client's forged entry left of the address the proxy appended.
  for (let i = 0; i < 5; i++) await signIn(proxied.email, 'wrong password!', PROXY, `198.51.100.${i}, 203.0.113.7`);
  expect(await signIn(proxied.email, PASSWORD, PROXY, '198.51.100.99, 203.0.113.7')).toBe('Too many attempts');
  // Neither locked anyone else out.
  for (const u of [direct, proxied]) expect(await signIn(u.email, PASSWORD, PROXY, '203.0.113.8')).toBe('signed in');
  expect(await auditedAddresses(direct.id)).toEqual([...Array(5).fill(DIRECT), '203.0.113.8']);
  expect(await auditedAddresses(proxied.id)).toEqual([...Array(5).fill('203.0.113.7'), '203.0.113.8']);
});

it('counts an IPv6 client as its /64', async () => {
  const u = await account();
  for (const address of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:aaaa::3', '2001:db8:1:2::4'])
    expect(await signIn(u.email, 'wrong password!', PROXY, address)).toBe('Wrong e-mail address or password');
  expect(await signIn(u.email, 'wrong password!', PROXY, '2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('Too many attempts');
  // The next /64 is another client.
  expect(await signIn(u.email, PASSWORD, PROXY, '2001:db8:1:3::1')).toBe('signed in');
});
