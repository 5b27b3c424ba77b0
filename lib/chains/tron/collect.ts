import 'server-only';
/**
 * What a Tron collection plan asks of the node (lib/payouts, docs/decisions/086): every price read
 * when the plan is prepared, never a constant (wallet/getchainparameters: the energy price, the
 * bandwidth price, the account creation fees; the token's energy per transfer with its dynamic
 * factor from a constant call and /wallet/getcontractinfo; the staked account's delegatable energy
 * from /wallet/getcandelegatedmaxsize and the network's energy totals from
 * /wallet/getaccountresource), then each deposit address's transactions built on the head block
 * (./transactions), and, once signed, their broadcast and their results.
 *
 * Per address, in the order they are broadcast:
 * - with stake: activate (if the address is no account yet), delegate, transfer, reclaim;
 * - without (the staked account cannot lend the plan's energy): fund (it also activates), transfer,
 *   the transfer burning the TRX that `fund` sent, at the node's energy price.
 */
import { z } from 'zod';
import type { LiveChainConfig } from '../../config';
import { TronNode, TronNodeError } from './node';
import {
  RESOURCE,
  buildTransaction,
  transferCallData,
  tronAddressBytes,
  type BuiltTransaction,
  tronRefundContract,
  type RefBlock,
  type TronRefundIntent,
  type TronStep,
} from './transactions';
import { blockOrNone } from './answers';
import { bandwidthOf, trxSweep, trxSweepAtMost, tronCostAtMost, type TronAddressCost } from './costs';

/** A transaction is valid for 24 hours after the head block it was built on; a plan leaves an hour of margin. */
const VALIDITY_MS = 23 * 3600_000;

const count = z
  .union([z.number().int().nonnegative(), z.string().regex(/^\d{1,30}$/)])
  .transform((v) => BigInt(v))
  .optional()
  .transform((v) => v ?? 0n);
const chainParameters = z.object({
  chainParameter: z.array(z.object({ key: z.string(), value: count })),
});
const accountResource = z.object({
  freeNetUsed: count,
  freeNetLimit: count,
  NetUsed: count,
  NetLimit: count,
  TotalEnergyLimit: count,
  TotalEnergyWeight: count,
});
const account = z.object({ address: z.string().optional(), balance: count });
const delegatable = z.object({ max_size: count });
const contractInfo = z.object({
  contract_state: z.object({ energy_factor: count }).optional(),
});
const energyEstimate = z.object({
  result: z.object({ result: z.boolean().optional(), message: z.string().optional() }).default({}),
  energy_used: count,
});
const constantWord = z.object({
  result: z.object({ result: z.boolean().optional() }).default({}),
  constant_result: z.array(z.string().regex(/^[0-9a-fA-F]{64}$/)).default([]),
});
const broadcastAnswer = z.object({
  result: z.boolean().optional(),
  txid: z.string().optional(),
  code: z.string().optional(),
  message: z.string().optional(),
});
const transactionInfo = z.object({
  id: z.string().optional(),
  blockNumber: z.number().int().nonnegative().optional(),
  result: z.string().optional(),
  receipt: z.object({ result: z.string().optional() }).default({}),
});

export interface TronPrices {
  energyFee: bigint;
  transactionFee: bigint;
  createAccountFee: bigint;
  createNewAccountFeeInSystemContract: bigint;
  energyFactor: bigint;
}

export interface TronDeposit {
  address: string;
  path: string;
  amount: bigint;
}

export interface TronPlannedStep extends BuiltTransaction {
  step: TronStep;
  /** TRX this step burns, sun. */
  burn: bigint;
}

export interface TronPlannedAddress extends TronDeposit {
  active: boolean;
  energy: bigint;
  delegated: bigint;
  steps: TronPlannedStep[];
}

export interface TronCollectionSteps {
  energySource: 'stake' | 'burn';
  prices: TronPrices;
  addresses: TronPlannedAddress[];
  expiresAt: Date;
}

export interface TronCollectionNode {
  /** Reads the prices and builds each deposit's transactions, the staked account lending energy if it can. */
  plan(input: {
    token: string;
    treasury: string;
    resourceAccount: string;
    deposits: readonly TronDeposit[];
  }): Promise<TronCollectionSteps>;
  /**
   * A plan of TRX itself (docs/decisions/113): each deposit's balance, less what its sweep burns
   * (./costs.ts `trxSweep`: its free bandwidth, the treasury's activation), swept to the treasury by
   * one transaction the deposit key signs; addresses whose sweep would burn all they hold are left.
   */
  planTrx(input: {
    treasury: string;
    deposits: readonly Omit<TronDeposit, 'amount'>[];
    minimum: bigint;
  }): Promise<TronCollectionSteps>;
  /**
   * The most collecting one address of `token` costs now (./costs.ts `tronCostAtMost`), read from the
   * node without a resource account: its prices, the energy of `sample`'s whole balance sent to
   * `treasury`, and the sizes of the transactions a plan would build for it. With `token` null, TRX
   * itself: the sweep's bytes burned (`trxSweepAtMost`), as if `sample` had no free bandwidth left.
   */
  costPerAddress(input: {
    token: string | null;
    treasury: string;
    sample: string;
    /** The kept fee payer: when its stake can lend the sample's energy, the burned-energy cases are left out. */
    lender?: string;
  }): Promise<Pick<TronAddressCost, 'total'>>;
  /**
   * A refund's one transaction from the treasury (docs/decisions/115), on the head block: TRX, or a
   * token's `transfer` whose fee limit is the energy the node estimates for it (the token's energy
   * factor included) at its energy price; and what it burns at the node's prices, the treasury's own
   * bandwidth first. Throws TronNodeError when the treasury cannot pay it now (no account, too
   * little of the currency, or too little TRX for what it burns).
   */
  refund(intent: TronRefundIntent): Promise<BuiltTransaction & { feeLimit: bigint; burn: bigint; expiresAt: Date }>;
  /** A TRC-20 balance, in the token's base units (`balanceOf(address)`, a constant call). */
  tokenBalance(token: string, holder: string): Promise<bigint>;
  /** An address's TRX, sun (`wallet/getaccount`; 0 for an address that is no account yet). */
  trxBalance(holder: string): Promise<bigint>;
  /** Broadcasts a signed transaction (its protobuf, hex); answers its id or throws TronNodeError with the node's reason. */
  broadcast(transactionHex: string): Promise<string>;
  /** A transaction's outcome once in a block: its height and whether it succeeded; null while not in one. */
  result(txID: string): Promise<{ height: number; success: boolean; reason: string | null } | null>;
}

/**
 * Staked sun whose energy covers `energy`: energy = sun / 10^6 x limit / weight, in whole TRX, at
 * least 1; null when the network's totals say nothing (no stake can be lent).
 */
function stakeFor(energy: bigint, limit: bigint, weight: bigint): bigint | null {
  if (weight === 0n || limit === 0n) return null;
  const trx = (energy * weight + limit - 1n) / limit;
  return (trx < 1n ? 1n : trx) * 1_000_000n;
}

export function tronCollectionNode(cfg: LiveChainConfig): TronCollectionNode {
  const node = new TronNode(cfg.rpc, cfg.network, cfg.apiKey);

  /** The node's prices; the token's energy factor with a token, 0 for TRX itself (no contract runs). */
  async function prices(token: string | null): Promise<TronPrices> {
    const { chainParameter } = await node.post('wallet/getchainparameters', {}, chainParameters);
    const find = (key: string) => {
      const found = chainParameter.find((p) => p.key === key);
      if (!found) throw new TronNodeError(`${node.label}: wallet/getchainparameters has no ${key}`);
      return found.value;
    };
    const info = token
      ? await node.post('wallet/getcontractinfo', { value: token, visible: true }, contractInfo)
      : { contract_state: undefined };
    return {
      energyFee: find('getEnergyFee'),
      transactionFee: find('getTransactionFee'),
      createAccountFee: find('getCreateAccountFee'),
      createNewAccountFeeInSystemContract: find('getCreateNewAccountFeeInSystemContract'),
      energyFactor: info.contract_state?.energy_factor ?? 0n,
    };
  }

  /** Bandwidth an account has: staked (NetLimit) and free, each less what it used; spent as steps are planned. */
  async function bandwidth(address: string) {
    const r = await node.post('wallet/getaccountresource', { address, visible: true }, accountResource);
    return {
      staked: r.NetLimit > r.NetUsed ? r.NetLimit - r.NetUsed : 0n,
      free: r.freeNetLimit > r.freeNetUsed ? r.freeNetLimit - r.freeNetUsed : 0n,
      totals: r,
    };
  }
  type Bandwidth = Awaited<ReturnType<typeof bandwidth>>;

  /** What a step burns for bandwidth, taking it from what the account has left (staked first, then free). */
  function bandwidthBurn(have: Bandwidth, bytes: bigint, p: TronPrices): bigint {
    if (have.staked >= bytes) {
      have.staked -= bytes;
      return 0n;
    }
    if (have.free >= bytes) {
      have.free -= bytes;
      return 0n;
    }
    return bytes * p.transactionFee;
  }
  /** An activating transfer burns the system contract's creation fee, and the account fee unless staked bandwidth covers it. */
  function activationBurn(have: Bandwidth, bytes: bigint, p: TronPrices): bigint {
    if (have.staked >= bytes) {
      have.staked -= bytes;
      return p.createNewAccountFeeInSystemContract;
    }
    return p.createNewAccountFeeInSystemContract + p.createAccountFee;
  }

  /** The energy `transfer(treasury, amount)` from `holder` uses, the token's energy factor included. */
  async function transferEnergy(token: string, treasury: string, holder: string, amount: bigint): Promise<bigint> {
    const parameter = Buffer.from(transferCallData(tronAddressBytes(treasury), amount).subarray(4)).toString('hex');
    const estimate = await node.post(
      'wallet/triggerconstantcontract',
      {
        owner_address: holder,
        contract_address: token,
        function_selector: 'transfer(address,uint256)',
        parameter,
        visible: true,
      },
      energyEstimate,
    );
    if (estimate.result.result !== true || estimate.energy_used === 0n)
      throw new TronNodeError(
        `${node.label}: the token ${token} does not estimate transfer(${treasury}, ${amount}) from ${holder}`,
      );
    return estimate.energy_used;
  }

  /** The head block, which every transaction of a plan refers to. */
  async function headBlock(): Promise<RefBlock> {
    const head = await node.post('wallet/getblock', { detail: false }, blockOrNone);
    if (!head) throw new TronNodeError(`${node.label} has no block yet`);
    return {
      height: head.block_header.raw_data.number,
      id: head.blockID,
      timestamp: head.block_header.raw_data.timestamp,
    };
  }

  async function tokenBalance(token: string, holder: string): Promise<bigint> {
    const parameter = Buffer.from(transferCallData(tronAddressBytes(holder), 0n).subarray(4, 36)).toString('hex');
    const answer = await node.post(
      'wallet/triggerconstantcontract',
      {
        owner_address: holder,
        contract_address: token,
        function_selector: 'balanceOf(address)',
        parameter,
        visible: true,
      },
      constantWord,
    );
    const word = answer.constant_result[0];
    if (answer.result.result !== true || !word)
      throw new TronNodeError(`${node.label}: the token ${token} does not answer balanceOf(${holder})`);
    return BigInt(`0x${word}`);
  }

  return {
    async plan({ token, treasury, resourceAccount, deposits }) {
      const p = await prices(token);
      const ref = await headBlock();
      const expiration = ref.timestamp + VALIDITY_MS;
      let timestamp = ref.timestamp;
      // Each transaction its own timestamp: two of the same contract would otherwise share an id.
      const build = (contract: Parameters<typeof buildTransaction>[1], feeLimit = 0n) =>
        buildTransaction(ref, contract, { expiration, timestamp: ++timestamp }, feeLimit);

      const resourceBytes = tronAddressBytes(resourceAccount);
      const tokenBytes = tronAddressBytes(token);
      const treasuryBytes = tronAddressBytes(treasury);
      const resourceBandwidth = await bandwidth(resourceAccount);
      const { TotalEnergyLimit: limit, TotalEnergyWeight: weight } = resourceBandwidth.totals;
      const { max_size: lendable } = await node.post(
        'wallet/getcandelegatedmaxsize',
        { owner_address: resourceAccount, type: RESOURCE.ENERGY, visible: true },
        delegatable,
      );

      const measured = [];
      for (const deposit of deposits) {
        const found = await node.post('wallet/getaccount', { address: deposit.address, visible: true }, account);
        const energy = await transferEnergy(token, treasury, deposit.address, deposit.amount);
        const delegated = stakeFor(energy, limit, weight);
        measured.push({ deposit, active: found.address !== undefined, energy, delegated });
      }
      // Stake lends each address its energy in turn; used energy returns to the staked account with
      // the reclaim and recovers over a day, so the stake must cover the plan's whole energy.
      const needed = measured.reduce((sum, m) => sum + (m.delegated ?? 0n), 0n);
      const energySource = measured.every((m) => m.delegated !== null) && needed <= lendable ? 'stake' : 'burn';

      const addresses: TronPlannedAddress[] = [];
      for (const m of measured) {
        const depositBytes = tronAddressBytes(m.deposit.address);
        // A new account has its whole free bandwidth.
        const depositBandwidth: Bandwidth = m.active
          ? await bandwidth(m.deposit.address)
          : { staked: 0n, free: resourceBandwidth.totals.freeNetLimit, totals: resourceBandwidth.totals };
        const steps: TronPlannedStep[] = [];
        const energyBurn = m.energy * p.energyFee;
        const transfer = build(
          {
            type: 'TriggerSmartContract',
            owner: depositBytes,
            contract: tokenBytes,
            callValue: 0n,
            data: transferCallData(treasuryBytes, m.deposit.amount),
            callTokenValue: 0n,
            tokenId: 0n,
          },
          energyBurn,
        );
        const transferBandwidth = bandwidthBurn(depositBandwidth, bandwidthOf(transfer.rawDataHex), p);
        if (energySource === 'stake') {
          // The transfer's bandwidth, when its free bandwidth does not cover it, is burned from TRX the activation sends.
          if (!m.active || transferBandwidth > 0n) {
            const amount = transferBandwidth > 0n ? transferBandwidth : 1n;
            const activate = build({ type: 'TransferContract', owner: resourceBytes, to: depositBytes, amount });
            const bytes = bandwidthOf(activate.rawDataHex);
            steps.push({
              step: m.active ? 'fund' : 'activate',
              ...activate,
              burn: m.active ? bandwidthBurn(resourceBandwidth, bytes, p) : activationBurn(resourceBandwidth, bytes, p),
            });
          }
          const lend = {
            owner: resourceBytes,
            resource: RESOURCE.ENERGY,
            balance: m.delegated!,
            receiver: depositBytes,
          };
          const delegate = build({ type: 'DelegateResourceContract', ...lend, lock: false, lockPeriod: 0n });
          steps.push({
            step: 'delegate',
            ...delegate,
            burn: bandwidthBurn(resourceBandwidth, bandwidthOf(delegate.rawDataHex), p),
          });
          steps.push({ step: 'transfer', ...transfer, burn: transferBandwidth });
          const reclaim = build({ type: 'UnDelegateResourceContract', ...lend });
          steps.push({
            step: 'reclaim',
            ...reclaim,
            burn: bandwidthBurn(resourceBandwidth, bandwidthOf(reclaim.rawDataHex), p),
          });
        } else {
          // The deposit burns for its energy (and bandwidth, if its free bandwidth is gone): fund sends exactly that.
          const amount = energyBurn + transferBandwidth;
          const fund = build({ type: 'TransferContract', owner: resourceBytes, to: depositBytes, amount });
          const bytes = bandwidthOf(fund.rawDataHex);
          steps.push({
            step: 'fund',
            ...fund,
            burn: m.active ? bandwidthBurn(resourceBandwidth, bytes, p) : activationBurn(resourceBandwidth, bytes, p),
          });
          steps.push({ step: 'transfer', ...transfer, burn: energyBurn + transferBandwidth });
        }
        addresses.push({
          ...m.deposit,
          active: m.active,
          energy: m.energy,
          delegated: energySource === 'stake' ? m.delegated! : 0n,
          steps,
        });
      }
      return { energySource, prices: p, addresses, expiresAt: new Date(expiration) };
    },

    async planTrx({ treasury, deposits, minimum }) {
      const p = await prices(null);
      const ref = await headBlock();
      const expiration = ref.timestamp + VALIDITY_MS;
      let timestamp = ref.timestamp;
      const treasuryBytes = tronAddressBytes(treasury);
      // The first sweep to a treasury that is no account yet creates it; the others find it.
      let treasuryActive =
        (await node.post('wallet/getaccount', { address: treasury, visible: true }, account)).address !== undefined;
      const addresses: TronPlannedAddress[] = [];
      for (const deposit of deposits) {
        const found = await node.post('wallet/getaccount', { address: deposit.address, visible: true }, account);
        if (found.address === undefined || found.balance === 0n) continue;
        const { free } = await bandwidth(deposit.address);
        const times = { expiration, timestamp: ++timestamp };
        const build = (amount: bigint) =>
          buildTransaction(
            ref,
            { type: 'TransferContract', owner: tronAddressBytes(deposit.address), to: treasuryBytes, amount },
            times,
          );
        // Measured with the whole balance: the sweep of less is never longer, so it never burns more.
        const bytes = bandwidthOf(build(found.balance).rawDataHex);
        const sweep = trxSweep(p, { balance: found.balance, bytes, freeBandwidth: free, treasuryActive });
        if (!sweep || sweep.amount < minimum) continue;
        treasuryActive = true;
        addresses.push({
          ...deposit,
          amount: sweep.amount,
          active: true,
          energy: 0n,
          delegated: 0n,
          steps: [{ step: 'sweep', ...build(sweep.amount), burn: sweep.burn }],
        });
      }
      return { energySource: 'burn', prices: p, addresses, expiresAt: new Date(expiration) };
    },

    async costPerAddress({ token, treasury, sample, lender }) {
      const p = await prices(token);
      const ref = await headBlock();
      if (token === null) {
        const { balance } = await node.post('wallet/getaccount', { address: sample, visible: true }, account);
        if (balance === 0n) throw new TronNodeError(`${node.label}: ${sample} holds no TRX`);
        const sweep = buildTransaction(
          ref,
          {
            type: 'TransferContract',
            owner: tronAddressBytes(sample),
            to: tronAddressBytes(treasury),
            amount: balance,
          },
          { expiration: ref.timestamp + VALIDITY_MS, timestamp: ref.timestamp },
        );
        return { total: trxSweepAtMost(p, bandwidthOf(sweep.rawDataHex)) };
      }
      const amount = await tokenBalance(token, sample);
      if (amount === 0n) throw new TronNodeError(`${node.label}: ${sample} holds no ${token}`);
      const energy = await transferEnergy(token, treasury, sample, amount);
      // The transactions a plan would build for it; the treasury stands in for the fee payer (an
      // address is 21 bytes whoever's), the energy burn for what `fund` sends and `delegate` lends.
      const built = (contract: Parameters<typeof buildTransaction>[1], feeLimit = 0n) =>
        bandwidthOf(
          buildTransaction(
            ref,
            contract,
            { expiration: ref.timestamp + VALIDITY_MS, timestamp: ref.timestamp },
            feeLimit,
          ).rawDataHex,
        );
      const payer = tronAddressBytes(treasury);
      const deposit = tronAddressBytes(sample);
      const burn = energy * p.energyFee;
      const lend = { owner: payer, resource: RESOURCE.ENERGY, balance: burn, receiver: deposit };
      let lent = false;
      if (lender) {
        const { totals } = await bandwidth(lender);
        const { max_size: lendable } = await node.post(
          'wallet/getcandelegatedmaxsize',
          { owner_address: lender, type: RESOURCE.ENERGY, visible: true },
          delegatable,
        );
        const needed = stakeFor(energy, totals.TotalEnergyLimit, totals.TotalEnergyWeight);
        lent = needed !== null && needed <= lendable;
      }
      return tronCostAtMost(
        p,
        energy,
        {
          fund: built({ type: 'TransferContract', owner: payer, to: deposit, amount: burn }),
          delegate: built({ type: 'DelegateResourceContract', ...lend, lock: false, lockPeriod: 0n }),
          transfer: built(
            {
              type: 'TriggerSmartContract',
              owner: deposit,
              contract: tronAddressBytes(token),
              callValue: 0n,
              data: transferCallData(payer, amount),
              callTokenValue: 0n,
              tokenId: 0n,
            },
            burn,
          ),
          reclaim: built({ type: 'UnDelegateResourceContract', ...lend }),
        },
        lent,
      );
    },

    async refund(intent) {
      const p = await prices(intent.token);
      const ref = await headBlock();
      const expiration = ref.timestamp + VALIDITY_MS;
      const treasury = await node.post('wallet/getaccount', { address: intent.treasury, visible: true }, account);
      if (treasury.address === undefined)
        throw new TronNodeError(`the treasury ${intent.treasury} is no account on ${node.label}: it holds no TRX`);
      let feeLimit = 0n;
      if (intent.token !== null) {
        const held = await tokenBalance(intent.token, intent.treasury);
        if (held < intent.amount)
          throw new TronNodeError(
            `the treasury ${intent.treasury} holds ${held} base units of ${intent.token}, less than ${intent.amount}`,
          );
        feeLimit =
          (await transferEnergy(intent.token, intent.destination, intent.treasury, intent.amount)) * p.energyFee;
      }
      const built = buildTransaction(
        ref,
        tronRefundContract(intent),
        { expiration, timestamp: ref.timestamp },
        feeLimit,
      );
      const bytes = bandwidthOf(built.rawDataHex);
      const have = await bandwidth(intent.treasury);
      // TRX to an address that is no account yet creates it, at the creation fees instead of bandwidth.
      const creates =
        intent.token === null &&
        (await node.post('wallet/getaccount', { address: intent.destination, visible: true }, account)).address ===
          undefined;
      const burn = (creates ? activationBurn(have, bytes, p) : bandwidthBurn(have, bytes, p)) + feeLimit;
      const spends = burn + (intent.token === null ? intent.amount : 0n);
      if (treasury.balance < spends)
        throw new TronNodeError(
          `the treasury ${intent.treasury} holds ${treasury.balance} sun; the refund needs ${spends} (${burn} burned for its fee)`,
        );
      return { ...built, feeLimit, burn, expiresAt: new Date(expiration) };
    },

    tokenBalance,
    trxBalance: async (holder) =>
      (await node.post('wallet/getaccount', { address: holder, visible: true }, account)).balance,

    async broadcast(transactionHex) {
      const answer = await node.post('wallet/broadcasthex', { transaction: transactionHex }, broadcastAnswer);
      if (answer.result !== true || !answer.txid) {
        const message =
          answer.message && /^[0-9a-f]*$/i.test(answer.message)
            ? Buffer.from(answer.message, 'hex').toString('utf8')
            : (answer.message ?? '');
        throw new TronNodeError(
          `${node.label} refused the transaction: ${answer.code ?? 'no code'}: ${message.slice(0, 200)}`,
        );
      }
      return answer.txid;
    },

    async result(txID) {
      const info = await node.post('wallet/gettransactioninfobyid', { value: txID }, transactionInfo);
      if (info.id === undefined || info.blockNumber === undefined) return null;
      const contractResult = info.receipt.result;
      const success = info.result !== 'FAILED' && (contractResult === undefined || contractResult === 'SUCCESS');
      return {
        height: info.blockNumber,
        success,
        reason: success ? null : (contractResult ?? info.result ?? 'FAILED'),
      };
    },
  };
}
