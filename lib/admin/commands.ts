import 'server-only';
import { z } from 'zod';
import { MODE_VALUES, text } from '../protocol';
import type { Database } from '../db';
import { findNetwork, type Network } from '../catalog';
import { mine, resetClock } from '../chains';
import { createMerchant, findApiKey, findMerchantByName, issueApiKey, listMerchants, revokeApiKey } from '../merchants';
import { simulatePayment, SimulationError } from '../sandbox';
import { isDomainErrorOf } from '../errors';
import { createUser, disableUser, listUsers, recordAudit, resetPassword, ROLES } from '../users';
import { listOrderDeliveries, resendWebhook } from '../webhooks';

/** A command that cannot be done as asked: its message is for the operator, not a stack trace. */
export function isCommandError(error: unknown): error is Error {
  return (error instanceof Error && error.name === 'SimulationError') || isDomainErrorOf(error, 'AccountError');
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
]);
export type AdminCommand = z.infer<typeof adminCommand>;

export async function runAdminCommand(db: Database, command: AdminCommand): Promise<unknown> {
  switch (command.command) {
    case 'keys.create': {
      // A second key for an existing merchant name goes to that merchant (e.g. its live key).
      const existing = await findMerchantByName(db, command.name);
      const { merchant, keys } = existing
        ? { merchant: existing, keys: await issueApiKey(db, existing.id, command.mode) }
        : await createMerchant(db, command.name, command.mode);
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
      if (!event) throw new SimulationError(`No webhook event ${command.eventId}.`);
      return event;
    }
  }
}

/** A catalog network named by the operator, or a message saying it is not one. */
function sandboxNetwork(name: string): Network {
  const network = findNetwork(name);
  if (!network) throw new SimulationError(`Unknown network "${name}".`);
  return network;
}
