import 'server-only';
import { z } from 'zod';
import { MODE_VALUES, feePayerSchema, signedTransactionHex, text } from '../protocol';
import type { Database } from '../db';
import { findNetwork, type Network } from '../catalog';
import { mine, resetClock } from '../chains';
import { createMerchant, findApiKey, findMerchantByName, issueApiKey, listMerchants, revokeApiKey } from '../merchants';
import { simulatePayment, SimulationError } from '../sandbox';
import { found, isDomainErrorOf } from '../errors';
import { createUser, disableUser, listUsers, recordAudit, resetPassword, ROLES } from '../users';
import { listOrderDeliveries, resendWebhook, webhookEventOwner } from '../webhooks';
import {
  broadcastTransaction,
  collectionPlan,
  fundsOf,
  gapLimitOf,
  prepareAnyCollection,
  setDepositKey,
  setFeePayer,
  setTreasury,
} from '../payouts';
import { planRefund } from '../refunds';

/** A command that cannot be done as asked: its message is for the operator, not a stack trace. */
export function isCommandError(error: unknown): error is Error {
  return (
    (error instanceof Error && error.name === 'SimulationError') ||
    [
      'AccountError',
      'CollectionRefused',
      'DepositKeyInvalid',
      'TreasuryInvalid',
      'KeyMaterialRefused',
      'NotFound',
      'RefundStateConflict',
    ].some((kind) => isDomainErrorOf(error, kind))
  );
}

/**
 * Operator commands behind the CLIs (`npm run keys -- ...`). They run either in the CLI's own
 * process (PostgreSQL, or the embedded database while no server holds it) or inside the server
 * through its control endpoint, so the embedded database is only ever opened by one process.
 */
export const adminCommand = z.discriminatedUnion('command', [
  z.object({ command: z.literal('keys.create'), name: text().min(1).max(200), mode: z.enum(MODE_VALUES) }),
  z.object({ command: z.literal('keys.list') }),
  z.object({ command: z.literal('keys.revoke'), publicKey: text().min(1) }),
  /** A merchant's own deposit key (docs/decisions/083): a descriptor with its key origin; public, audited. */
  z.object({
    command: z.literal('keys.deposit-key'),
    merchant: text().min(1).max(200),
    network: text().min(1).max(64),
    mode: z.enum(MODE_VALUES),
    key: z.string().min(1).max(512),
  }),
  z.object({
    command: z.literal('sandbox.pay'),
    target: text().min(1),
    amount: text().min(1),
    currency: text().min(1).optional(),
    tag: text().min(1).optional(),
  }),
  z.object({
    command: z.literal('sandbox.mine'),
    network: text().min(1),
    count: z.number().int().min(1).max(1000),
    /** Block time (ISO 8601), e.g. after an order's expiry; never earlier than the tip's (times are monotonic). */
    at: z.iso.datetime({ offset: true }).optional(),
  }),
  /** Undoes `sandbox.mine --at` in the future: later blocks follow the wall clock again (docs/decisions/016). */
  z.object({ command: z.literal('sandbox.reset-clock'), network: z.string().min(1) }),
  /**
   * A signed Bitcoin-family transaction handed to the sandbox as collections/submit hands a plan's
   * (docs/decisions/109): taken only after the sandbox's checks of its spends and signatures.
   */
  z.object({
    command: z.literal('sandbox.broadcast-raw'),
    network: text().min(1).max(64),
    transaction: signedTransactionHex(),
  }),
  /** Dashboard users. A password given here came from the CLI's standard input or prompt, never its arguments. */
  z.object({
    command: z.literal('users.create'),
    merchant: text().min(1).max(200),
    email: text().min(1).max(254),
    role: z.enum(ROLES),
    password: z.string().min(1).max(1024).optional(),
  }),
  z.object({ command: z.literal('users.list') }),
  z.object({
    command: z.literal('users.reset-password'),
    email: text().min(1).max(254),
    password: z.string().min(1).max(1024).optional(),
  }),
  z.object({ command: z.literal('users.disable'), email: text().min(1).max(254) }),
  z.object({ command: z.literal('webhooks.list'), orderId: z.string().uuid() }),
  z.object({ command: z.literal('webhooks.resend'), eventId: z.string().uuid() }),
  /** Money out (lib/payouts): a merchant's treasury, funds and collection plans; the signer signs elsewhere. */
  z.object({
    command: z.literal('collect.treasury'),
    merchant: text().min(1).max(200),
    network: text().min(1).max(64),
    mode: z.enum(MODE_VALUES),
    address: z.string().min(1).max(512),
  }),
  z.object({
    command: z.literal('collect.fee-payer'),
    merchant: text().min(1).max(200),
    network: text().min(1).max(64),
    mode: z.enum(MODE_VALUES),
    address: z.string().min(1).max(512),
    path: z.string().min(1).max(512),
  }),
  z.object({ command: z.literal('collect.funds'), merchant: text().min(1).max(200), mode: z.enum(MODE_VALUES) }),
  z.object({
    command: z.literal('collect.prepare'),
    merchant: text().min(1).max(200),
    network: text().min(1).max(64),
    mode: z.enum(MODE_VALUES),
    /** Base units per virtual byte; the node's estimate when absent. */
    feeRate: z
      .string()
      .regex(/^[1-9]\d{0,9}$/)
      .optional(),
    /** Outputs below this many base units are left. */
    minimum: z
      .string()
      .regex(/^\d{1,20}$/)
      .optional(),
    /** EVM and Tron: the currency to collect (the network's first token when absent). */
    currency: z
      .string()
      .regex(/^[A-Za-z0-9]{1,16}$/)
      .optional(),
    /** EVM and Tron: the account paying the fees, when not the one kept in the merchant's settings (docs/decisions/099). */
    feePayer: feePayerSchema.optional(),
  }),
  z.object({ command: z.literal('collect.gap-limit'), network: text().min(1).max(64), mode: z.enum(MODE_VALUES) }),
  /** A refund plan: pays a ready refund to the payer's confirmed address (docs/decisions/081). */
  z.object({
    command: z.literal('collect.refund'),
    merchant: text().min(1).max(200),
    mode: z.enum(MODE_VALUES),
    refundId: z.uuid(),
    feeFromRefund: z.boolean(),
    feeRate: z
      .string()
      .regex(/^[1-9]\d{0,9}$/)
      .optional(),
  }),
  z.object({
    command: z.literal('collect.show'),
    merchant: text().min(1).max(200),
    mode: z.enum(MODE_VALUES),
    planId: z.uuid(),
  }),
]);
export type AdminCommand = z.infer<typeof adminCommand>;

export async function runAdminCommand(db: Database, command: AdminCommand): Promise<unknown> {
  switch (command.command) {
    case 'collect.treasury': {
      const merchant = await merchantNamed(db, command.merchant);
      await setTreasury(db, {
        merchantId: merchant.id,
        network: command.network,
        mode: command.mode,
        address: command.address,
      });
      await recordAudit(db, {
        merchantId: merchant.id,
        actor: 'cli',
        action: 'treasury.set',
        detail: { network: command.network, mode: command.mode, address: command.address.trim() },
      });
      return { network: command.network, mode: command.mode, address: command.address.trim() };
    }
    // The Funds form's and fee-payers/set's rules (lib/payouts setFeePayer), audited with the change (docs/decisions/107).
    case 'collect.fee-payer': {
      const merchant = await merchantNamed(db, command.merchant);
      return db.transaction(async (tx) => {
        const kept = await setFeePayer(tx, { merchantId: merchant.id, ...command });
        await recordAudit(tx, {
          merchantId: merchant.id,
          actor: 'cli',
          action: 'fee-payer.set',
          detail: { ...kept, mode: command.mode },
        });
        return { ...kept, mode: command.mode };
      });
    }
    case 'collect.funds': {
      const merchant = await merchantNamed(db, command.merchant);
      return (await fundsOf(db, merchant.id, command.mode)).map((line) => ({
        ...line,
        total: line.total.toString(),
        estimatedCost: line.estimatedCost?.toString() ?? null,
        feeRate: line.feeRate?.toString() ?? null,
        costPerAddress: line.costPerAddress?.toString() ?? null,
      }));
    }
    case 'collect.prepare': {
      const merchant = await merchantNamed(db, command.merchant);
      const prepared = await prepareAnyCollection(db, {
        merchantId: merchant.id,
        mode: command.mode,
        network: command.network,
        ...(command.feeRate ? { feeRate: BigInt(command.feeRate) } : {}),
        ...(command.minimum ? { minimum: BigInt(command.minimum) } : {}),
        ...(command.currency ? { currency: command.currency } : {}),
        ...(command.feePayer ? { feePayer: command.feePayer } : {}),
      });
      // The plan as stored, the same JSON as the dashboard's plan file and collections/get: what the signer reads.
      return found(
        await collectionPlan(db, merchant.id, command.mode, prepared.planId),
        'Collection plan',
        prepared.planId,
      );
    }
    case 'collect.gap-limit':
      return gapLimitOf(db, command.network, command.mode);
    case 'collect.refund': {
      const merchant = await merchantNamed(db, command.merchant);
      return planRefund(db, { merchantId: merchant.id, mode: command.mode }, command.refundId, {
        feeFromRefund: command.feeFromRefund,
        ...(command.feeRate ? { feeRate: BigInt(command.feeRate) } : {}),
      });
    }
    case 'collect.show': {
      const merchant = await merchantNamed(db, command.merchant);
      return found(
        await collectionPlan(db, merchant.id, command.mode, command.planId),
        'Collection plan',
        command.planId,
      );
    }
    case 'keys.create': {
      // A second key for an existing merchant name goes to that merchant (e.g. its live key).
      const existing = await findMerchantByName(db, command.name);
      const { merchant, keys } = existing
        ? { merchant: existing, keys: await issueApiKey(db, existing.id, command.mode, { createdBy: 'cli' }) }
        : await createMerchant(db, command.name, command.mode, { createdBy: 'cli' });
      // The same entry as the dashboard's keys page writes, by the command line.
      await recordAudit(db, {
        merchantId: merchant.id,
        actor: 'cli',
        action: 'key.create',
        detail: { publicKey: keys.publicKey, mode: command.mode },
      });
      return { merchantId: merchant.id, name: merchant.name, ...keys };
    }
    case 'keys.list':
      return listMerchants(db);
    case 'keys.deposit-key': {
      const merchant = await merchantNamed(db, command.merchant);
      const set = await setDepositKey(db, {
        merchantId: merchant.id,
        network: command.network,
        mode: command.mode,
        key: command.key,
      });
      await recordAudit(db, {
        merchantId: merchant.id,
        actor: 'cli',
        action: 'deposit-key.set',
        detail: { network: set.network, mode: set.mode, key: set.key, keyFingerprint: set.keyFingerprint },
      });
      return set;
    }
    case 'keys.revoke': {
      const key = await findApiKey(db, command.publicKey);
      const revoked = await revokeApiKey(db, command.publicKey);
      if (revoked && key)
        await recordAudit(db, {
          merchantId: key.merchantId,
          actor: 'cli',
          action: 'key.revoke',
          detail: { publicKey: key.publicKey, mode: key.mode },
        });
      return { revoked };
    }
    case 'sandbox.pay':
      return simulatePayment(db, command);
    case 'sandbox.mine': {
      const network = sandboxNetwork(command.network);
      const blocks = await mine(
        db,
        network,
        command.count,
        command.at === undefined ? undefined : new Date(command.at),
      );
      return { network: network.name, height: blocks[blocks.length - 1]!.height };
    }
    case 'sandbox.reset-clock': {
      const network = sandboxNetwork(command.network);
      const { tip, removed } = await resetClock(db, network);
      return { network: network.name, height: tip.height, time: tip.time.toISOString(), removed };
    }
    case 'sandbox.broadcast-raw':
      return broadcastTransaction(db, { mode: 'test', network: command.network, transaction: command.transaction });
    case 'users.create': {
      const { user, link } = await createUser(db, {
        merchant: command.merchant,
        email: command.email,
        role: command.role,
        password: command.password,
      });
      await recordAudit(db, {
        merchantId: user.merchantId,
        actor: 'cli',
        action: 'user.create',
        detail: { email: user.email, role: user.role },
      });
      return { user, link };
    }
    case 'users.list':
      return listUsers(db);
    case 'users.reset-password': {
      const { user, link } = await resetPassword(db, command.email, command.password);
      await recordAudit(db, {
        merchantId: user.merchantId,
        actor: 'cli',
        action: 'user.reset-password',
        detail: { email: user.email, link: link !== undefined },
      });
      return { user, link };
    }
    case 'users.disable': {
      const user = await disableUser(db, command.email);
      await recordAudit(db, {
        merchantId: user.merchantId,
        actor: 'cli',
        action: 'user.disable',
        detail: { email: user.email },
      });
      return user;
    }
    case 'webhooks.list':
      return listOrderDeliveries(db, command.orderId);
    case 'webhooks.resend': {
      const event = await resendWebhook(db, command.eventId);
      const owner = event && (await webhookEventOwner(db, command.eventId));
      if (!event || !owner) throw new SimulationError(`No webhook event ${command.eventId}.`);
      // As the dashboard's Resend records it (app/dashboard/(app)/actions.ts), by the operator.
      await recordAudit(db, {
        merchantId: owner.merchantId,
        actor: 'cli',
        action: 'webhook.resend',
        detail: { eventId: command.eventId, mode: owner.mode },
      });
      return event;
    }
  }
}

/** A catalog network named by the operator, or a message saying it is not one. */
async function merchantNamed(db: Database, name: string): Promise<{ id: string }> {
  return found(await findMerchantByName(db, name), 'Merchant', name);
}

function sandboxNetwork(name: string): Network {
  const network = findNetwork(name);
  if (!network) throw new SimulationError(`Unknown network "${name}".`);
  return network;
}
