import 'server-only';
/**
 * XRP an escrow or a payment channel releases to the receiving account, read from a transaction's
 * metadata (https://xrpl.org/docs/references/protocol/transactions/metadata#affectednodes):
 *
 * - EscrowFinish (https://xrpl.org/docs/references/protocol/transactions/types/escrowfinish) and
 *   PaymentChannelClaim (.../types/paymentchannelclaim) carry neither the destination nor its tag:
 *   both are fields of the ledger object the XRP comes from, the deleted Escrow
 *   (.../ledger-entry-types/escrow) or the modified or deleted PayChannel
 *   (.../ledger-entry-types/paychannel), in its `FinalFields`.
 * - Neither has a `delivered_amount`. What arrived is the account's balance change, its
 *   AccountRoot's `FinalFields.Balance` less `PreviousFields.Balance`, plus the fee when the account
 *   sent the transaction itself (a channel's payee usually redeems its claims so): the fee is the
 *   account's own spending, not less money received.
 */
import { z } from 'zod';

const drops = z
  .string()
  .regex(/^\d{1,20}$/, 'must be drops')
  .transform(BigInt);

/** The fields read of an Escrow's or a PayChannel's FinalFields: who it is from, to, under which tag. */
const source = z.object({
  Account: z.string(),
  Destination: z.string(),
  DestinationTag: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
});

const ledgerObject = z.object({
  LedgerEntryType: z.string(),
  FinalFields: z.record(z.string(), z.unknown()).optional(),
  PreviousFields: z.record(z.string(), z.unknown()).optional(),
});

/** One entry of AffectedNodes: `{ModifiedNode: {...}}`, `{DeletedNode: {...}}` or `{CreatedNode: {...}}`. */
export const affectedNode = z.record(z.string(), z.unknown());

export interface Released {
  /** The account the escrow or the channel is from. */
  from: string;
  /** The receiving account it released to. */
  to: string;
  tag: number | undefined;
  drops: bigint;
}

/**
 * The XRP the metadata's `nodes` show released to one of the `receiving` accounts, from an Escrow
 * or a PayChannel whose destination it is; null when none is, or when its balance did not grow.
 * `fee` is the transaction's, in drops, counted back when that account sent it (`sender`). Throws
 * on an object of ours whose fields are not what the ledger writes.
 */
export function releasedTo(
  nodes: readonly z.output<typeof affectedNode>[],
  receiving: ReadonlySet<string>,
  fee: bigint,
  sender: string,
): Released | null {
  const objects = nodes.flatMap((node) =>
    Object.entries(node).flatMap(([kind, value]) => {
      const object = ledgerObject.safeParse(value);
      return object.success ? [{ kind, ...object.data }] : [];
    }),
  );
  const releasing = objects.find(
    (o) =>
      (o.LedgerEntryType === 'Escrow' || o.LedgerEntryType === 'PayChannel') &&
      (o.kind === 'DeletedNode' || o.kind === 'ModifiedNode') &&
      typeof o.FinalFields?.Destination === 'string' &&
      receiving.has(o.FinalFields.Destination),
  );
  if (!releasing) return null;
  const from = check(source, releasing.FinalFields, `its ${releasing.LedgerEntryType}`);
  const account = from.Destination;
  const root = objects.find(
    (o) => o.kind === 'ModifiedNode' && o.LedgerEntryType === 'AccountRoot' && o.FinalFields?.Account === account,
  );
  if (root?.PreviousFields?.Balance === undefined) return null; // the account's balance did not change
  const after = check(drops, root.FinalFields?.Balance, 'the account balance');
  const before = check(drops, root.PreviousFields.Balance, 'the account balance before');
  const arrived = after - before + (sender === account ? fee : 0n);
  return arrived > 0n ? { from: from.Account, to: account, tag: from.DestinationTag, drops: arrived } : null;
}

function check<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const checked = schema.safeParse(value);
  if (checked.success) return checked.data;
  const issue = checked.error.issues[0]!;
  throw new Error(`${what}${issue.path.length ? ` at ${issue.path.join('.')}` : ''}: ${issue.message}`);
}
