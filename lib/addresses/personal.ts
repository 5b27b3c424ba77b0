import 'server-only';
/**
 * Personal addresses: the users of a merchant's own system (`externalUserId` of make-order, the
 * `clientId` of personal-addresses/*) and their one address per network, taken from the pool the
 * first time it is needed and theirs for good. make-order's orders with an `externalUserId` and
 * the personal-addresses operations share these.
 */
import { findNetwork, type Network } from '../catalog';
import { networkFor } from '../chains';
import {
  addresses,
  bare,
  columnsOf,
  deposits,
  externalUsers,
  insertValues,
  param,
  payments,
  placeholders,
  sql,
  statement,
  type Queryable,
  type RowOf,
} from '../db';
import { formatUnits } from '../money';
import type { PersonalAddress, PersonalUser } from '../protocol';
import { poolOf, refillNow, refillSoon, type AddressPool } from './index';
import type { MerchantScope } from '../merchants';

export type ExternalUserRow = RowOf<typeof externalUsers>;

export type PersonalAddressRow = Pick<RowOf<typeof addresses>, 'id' | 'address' | 'tag'>;

const USER = placeholders(['merchantId', 'mode', 'clientId', 'email', 'name', 'depositWebhookUrl']);
const NEW_USER = insertValues([
  [externalUsers.merchantId, USER.merchantId],
  [externalUsers.mode, USER.mode],
  [externalUsers.externalUserId, USER.clientId],
  [externalUsers.email, USER.email],
  [externalUsers.name, USER.name],
  [externalUsers.depositWebhookUrl, USER.depositWebhookUrl],
]);
/** A field given replaces the stored one; one absent (null) keeps it. */
const given = (
  column: typeof externalUsers.email | typeof externalUsers.name | typeof externalUsers.depositWebhookUrl,
) => sql`${bare(column)} = coalesce(excluded.${bare(column)}, ${column})`;
const UPSERT_USER = statement<
  ExternalUserRow,
  Record<keyof typeof USER, string | null>
>(sql`insert into ${externalUsers} (${NEW_USER.columns}) values (${NEW_USER.values})
  on conflict (${bare(externalUsers.merchantId)}, ${bare(externalUsers.mode)}, ${bare(externalUsers.externalUserId)})
  do update set ${given(externalUsers.email)}, ${given(externalUsers.name)}, ${given(externalUsers.depositWebhookUrl)}, ${bare(externalUsers.updatedAt)} = now()
  returning *`);

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
  const [user] = await UPSERT_USER.run(db, {
    merchantId: key.merchantId,
    mode: key.mode,
    clientId,
    email: fields.email ?? null,
    name: fields.name ?? null,
    depositWebhookUrl: fields.depositWebhookUrl ?? null,
  });
  return user!;
}

const FIND_USER = statement<
  ExternalUserRow,
  { merchantId: string; mode: string; id: string | null; clientId: string | null }
>(
  sql`select * from ${externalUsers} where ${externalUsers.merchantId} = ${param('merchantId')} and ${externalUsers.mode} = ${param('mode')}
    and (${param('id')}::text is null or ${externalUsers.id}::text = ${param('id')})
    and (${param('clientId')}::text is null or ${externalUsers.externalUserId} = ${param('clientId')})`,
);

/** One of the caller's users by id or clientId; undefined when none. */
export async function findExternalUser(
  db: Queryable,
  key: MerchantScope,
  by: { id?: string; clientId?: string },
): Promise<ExternalUserRow | undefined> {
  if (by.id === undefined && by.clientId === undefined) return undefined;
  const [user] = await FIND_USER.run(db, {
    merchantId: key.merchantId,
    mode: key.mode,
    id: by.id ?? null,
    clientId: by.clientId ?? null,
  });
  return user;
}

/** Where the statements name a user's address: its merchant, mode and user. */
type Owner = { merchantId: string; mode: string; userId: string };
const OWNED = sql`${addresses.merchantId} = ${param('merchantId')} and ${addresses.mode} = ${param('mode')} and ${addresses.externalUserId} = ${param('userId')}`;
const PERSONAL_COLUMNS = columnsOf(addresses, ['id', 'address', 'tag']);
const LOCK_PERSONAL = statement<
  PersonalAddressRow,
  Owner & { network: string }
>(sql`select ${PERSONAL_COLUMNS} from ${addresses}
  where ${OWNED} and ${addresses.network} = ${param('network')} and ${addresses.kind} = 'PERSONAL'
  for update`);
const TAKE_FROM_POOL = statement<
  PersonalAddressRow,
  Owner & { network: string; sequence: string; keyFingerprint: string }
>(sql`update ${addresses}
    set ${bare(addresses.assignedAt)} = now(), ${bare(addresses.merchantId)} = ${param('merchantId')}, ${bare(addresses.externalUserId)} = ${param('userId')},
        ${bare(addresses.kind)} = 'PERSONAL'
  where ${addresses.network} = ${param('network')} and ${addresses.mode} = ${param('mode')}
    and ${addresses.derivationIndex} = (select nextval(${param('sequence')}::regclass))
    and ${addresses.keyFingerprint} = ${param('keyFingerprint')}
  returning ${PERSONAL_COLUMNS}`);

/**
 * The user's address on `network`, taken from the pool when the user has none yet (`fromPool`);
 * undefined when the pool is empty. The address row is locked until the transaction ends, which
 * serialises a user's concurrent orders.
 */
export async function personalAddress(
  tx: Queryable,
  key: MerchantScope,
  userId: string,
  pool: AddressPool,
): Promise<(PersonalAddressRow & { fromPool: boolean }) | undefined> {
  const { network } = pool;
  const [mine] = await LOCK_PERSONAL.run(tx, {
    merchantId: key.merchantId,
    mode: key.mode,
    userId,
    network: network.name,
  });
  if (mine) return { ...mine, fromPool: false };
  const [taken] = await TAKE_FROM_POOL.run(tx, {
    merchantId: key.merchantId,
    mode: key.mode,
    userId,
    network: network.name,
    sequence: pool.sequence,
    keyFingerprint: pool.keyFingerprint,
  });
  return taken && { ...taken, fromPool: true };
}

/**
 * personal-addresses/get-user-address: the user's address on `network`, taken from the pool on
 * first use (with one refill when the pool is empty); undefined when the pool stays empty.
 */
export async function userAddress(
  db: Queryable,
  key: MerchantScope,
  userId: string,
  network: Network,
): Promise<PersonalAddressRow | undefined> {
  const pool = await poolOf(db, network, key.mode, key.merchantId);
  let address = await personalAddress(db, key, userId, pool);
  if (!address) {
    await refillNow(db, pool);
    address = await personalAddress(db, key, userId, pool);
  }
  if (address?.fromPool) void refillSoon(db, pool);
  return address;
}

const USER_ADDRESSES = statement<PersonalAddressRow & Pick<RowOf<typeof addresses>, 'network'>, Owner>(
  sql`select ${columnsOf(addresses, ['id', 'network', 'address', 'tag'])} from ${addresses}
    where ${OWNED} and ${addresses.kind} = 'PERSONAL' order by ${addresses.network}, ${addresses.id}`,
);

/** The user's addresses, one per network, in network name order. */
export function userAddresses(
  db: Queryable,
  key: MerchantScope,
  userId: string,
): Promise<(PersonalAddressRow & { network: string })[]> {
  return USER_ADDRESSES.run(db, { merchantId: key.merchantId, mode: key.mode, userId });
}

// One branch per table a confirmed transfer to an address is written in (as a deposit, or as an
// order's payment); `sum` answers numeric, read as text.
const RECEIVED = statement<
  { address_id: string; currency: string; received: string },
  { ids: string[] }
>(sql`select ${deposits.addressId}, ${deposits.currency}, sum(${deposits.amount})::text as received from ${deposits}
   where ${deposits.addressId} = any(${param('ids')}::uuid[]) and ${deposits.status} = 'PROCESSED' group by ${deposits.addressId}, ${deposits.currency}
  union all
  select ${payments.addressId}, ${payments.currency}, sum(${payments.amount})::text from ${payments}
   where ${payments.addressId} = any(${param('ids')}::uuid[]) and ${payments.status} = 'processed' group by ${payments.addressId}, ${payments.currency}`);

/** Confirmed base units received per (address, currency) of these addresses. */
export async function receivedByCurrency(db: Queryable, addressIds: readonly string[]): Promise<Map<string, bigint>> {
  if (addressIds.length === 0) return new Map();
  const rows = await RECEIVED.run(db, { ids: [...addressIds] });
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
  const rows = (await userAddresses(db, key, userId)).filter(
    (row) => !wantedNetworks || wantedNetworks.includes(row.network),
  );
  const received = await receivedByCurrency(
    db,
    rows.map((row) => row.id),
  );
  return rows.flatMap((row) => {
    const network = networkFor(key.mode, row.network) ?? findNetwork(row.network);
    const currencies = (network?.currencies ?? []).filter(
      (c) => !wantedCurrencies || wantedCurrencies.includes(c.ticker),
    );
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
