import 'server-only';
/**
 * Personal addresses: the users of a merchant's own system (`externalUserId` of make-order, the
 * `clientId` of personal-addresses/*) and their one address per network, taken from the pool the
 * first time it is needed and theirs for good. make-order's orders with an `externalUserId` and
 * the personal-addresses operations share these.
 */
import { findNetwork, type Network } from '../catalog';
import { networkFor } from '../chains';
import type { Queryable, RowOf, externalUsers } from '../db';
import { formatUnits } from '../money';
import type { PersonalAddress, PersonalUser } from '../protocol';
import { poolSequence, refillNow, refillSoon } from './index';
import type { MerchantScope } from '../merchants';

export type ExternalUserRow = RowOf<typeof externalUsers>;

export interface PersonalAddressRow {
  id: string;
  address: string;
  tag: string | null;
}

/**
 * The user `clientId` of the caller, created when new; the fields given replace the stored ones,
 * absent ones stay as they were.
 */
export async function upsertExternalUser(
  db: Queryable,
  key: MerchantScope,
  clientId: string,
  fields: { email?: string; name?: string; depositWebhookUrl?: string } = {},
): Promise<ExternalUserRow> {
  const [user] = await db.query<ExternalUserRow>(
    `insert into external_users (merchant_id, mode, external_user_id, email, name, deposit_webhook_url) values ($1, $2, $3, $4, $5, $6)
     on conflict (merchant_id, mode, external_user_id)
     do update set email = coalesce(excluded.email, external_users.email), name = coalesce(excluded.name, external_users.name),
                   deposit_webhook_url = coalesce(excluded.deposit_webhook_url, external_users.deposit_webhook_url), updated_at = now()
     returning *`,
    [key.merchantId, key.mode, clientId, fields.email ?? null, fields.name ?? null, fields.depositWebhookUrl ?? null],
  );
  return user!;
}

/** One of the caller's users by id or clientId; undefined when none. */
export async function findExternalUser(db: Queryable, key: MerchantScope, by: { id?: string; clientId?: string }): Promise<ExternalUserRow | undefined> {
  if (by.id === undefined && by.clientId === undefined) return undefined;
  const [user] = await db.query<ExternalUserRow>(
    `select * from external_users where merchant_id = $1 and mode = $2
        and ($3::text is null or id::text = $3) and ($4::text is null or external_user_id = $4)`,
    [key.merchantId, key.mode, by.id ?? null, by.clientId ?? null],
  );
  return user;
}

/**
 * The user's address on `network`, taken from the pool when the user has none yet (`fromPool`);
 * undefined when the pool is empty. The address row is locked until the transaction ends, which
 * serialises a user's concurrent orders.
 */
export async function personalAddress(tx: Queryable, key: MerchantScope, userId: string, network: Network): Promise<(PersonalAddressRow & { fromPool: boolean }) | undefined> {
  const [mine] = await tx.query<PersonalAddressRow>(
    `select id, address, tag from addresses
      where merchant_id = $1 and mode = $2 and external_user_id = $3 and network = $4 and kind = 'PERSONAL'
      for update`,
    [key.merchantId, key.mode, userId, network.name],
  );
  if (mine) return { ...mine, fromPool: false };
  const [taken] = await tx.query<PersonalAddressRow>(
    `update addresses a set assigned_at = now(), merchant_id = $1, external_user_id = $3, kind = 'PERSONAL'
      where network = $4 and mode = $2 and derivation_index = (select nextval($5::regclass))
      returning a.id, a.address, a.tag`,
    [key.merchantId, key.mode, userId, network.name, poolSequence(network, key.mode)],
  );
  return taken && { ...taken, fromPool: true };
}

/**
 * personal-addresses/get-user-address: the user's address on `network`, taken from the pool on
 * first use (with one refill when the pool is empty); undefined when the pool stays empty.
 */
export async function userAddress(db: Queryable, key: MerchantScope, userId: string, network: Network): Promise<PersonalAddressRow | undefined> {
  let address = await personalAddress(db, key, userId, network);
  if (!address) {
    await refillNow(db, network, key.mode);
    address = await personalAddress(db, key, userId, network);
  }
  if (address?.fromPool) void refillSoon(db, network, key.mode);
  return address;
}

/** The user's addresses, one per network, in network name order. */
export function userAddresses(db: Queryable, key: MerchantScope, userId: string): Promise<(PersonalAddressRow & { network: string })[]> {
  return db.query(
    `select id, network, address, tag from addresses
      where merchant_id = $1 and mode = $2 and external_user_id = $3 and kind = 'PERSONAL' order by network, id`,
    [key.merchantId, key.mode, userId],
  );
}

/** Confirmed base units received per (address, currency) of these addresses. */
export async function receivedByCurrency(db: Queryable, addressIds: readonly string[]): Promise<Map<string, bigint>> {
  if (addressIds.length === 0) return new Map();
  const rows = await db.query<{ address_id: string; currency: string; received: string }>(
    `select address_id, currency, sum(amount)::text as received from deposits
      where address_id = any($1::uuid[]) and status = 'PROCESSED' group by address_id, currency
     union all
     select address_id, currency, sum(amount)::text from payments
      where address_id = any($1::uuid[]) and status = 'processed' group by address_id, currency`,
    [addressIds],
  );
  const totals = new Map<string, bigint>();
  for (const row of rows) {
    const key = `${row.address_id}/${row.currency}`;
    totals.set(key, (totals.get(key) ?? 0n) + BigInt(row.received));
  }
  return totals;
}

/** A user as personal-addresses/* answer it. */
export function serializeUser(user: ExternalUserRow, addresses?: PersonalAddress[]): PersonalUser {
  return {
    id: user.id,
    clientId: user.external_user_id,
    clientEmail: user.email,
    clientName: user.name,
    depositWebhookUrl: user.deposit_webhook_url,
    createdAt: user.created_at.toISOString(),
    updatedAt: user.updated_at.toISOString(),
    ...(addresses ? { addresses } : {}),
  };
}

/**
 * The user's addresses as personal-addresses/* answer them: one entry per coin of each network the
 * user has an address on (the coins of the network as the caller's mode has it), filtered by the
 * currencies and networks given, in network then catalog order.
 */
export async function personalAddressesOf(
  db: Queryable,
  key: MerchantScope,
  userId: string,
  filter: { currency?: readonly string[]; network?: readonly string[] } = {},
): Promise<PersonalAddress[]> {
  const wantedCurrencies = filter.currency?.map((c) => c.toUpperCase());
  const wantedNetworks = filter.network?.map((n) => n.toLowerCase());
  const rows = (await userAddresses(db, key, userId)).filter((row) => !wantedNetworks || wantedNetworks.includes(row.network));
  const received = await receivedByCurrency(db, rows.map((row) => row.id));
  return rows.flatMap((row) => {
    const network = networkFor(key.mode, row.network) ?? findNetwork(row.network);
    const currencies = (network?.currencies ?? []).filter((c) => !wantedCurrencies || wantedCurrencies.includes(c.ticker));
    return currencies.map((currency): PersonalAddress => ({
      id: row.id,
      userId,
      currency: currency.ticker,
      network: row.network,
      address: row.address,
      tag: row.tag,
      balance: formatUnits(received.get(`${row.id}/${currency.ticker}`) ?? 0n, currency.decimals),
      isActive: true,
    }));
  });
}
