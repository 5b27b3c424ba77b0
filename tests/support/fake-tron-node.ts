/**
 * A FAKE java-tron full node: a Tron node cannot run on this machine, so the Tron adapter's tests
 * run against this HTTP server on 127.0.0.1. It implements exactly the HTTP API methods the adapter
 * calls, with the request and answer shapes of the public documentation:
 *
 * - POST /wallet/getblock, /walletsolidity/getblock  {id_or_num?, detail?}
 *   https://developers.tron.network/reference/getblock
 *   https://tronprotocol.github.io/documentation-en/api/http/block-and-tx-query/getblock/
 * - POST /wallet/getblockbynum  {num}: block 0 is Tron mainnet's genesis block by its id, whose last
 *   four bytes are the chain id TronLink reports (0x2b6653dc, docs/decisions/130)
 *   https://tronprotocol.github.io/documentation-en/api/http/block-and-tx-query/getblockbynum/
 *   https://developers.tron.network/reference-link/eth_chainid
 * - POST /wallet/getblockbylimitnext  {startNum, endNum}  (endNum excluded, at most 100 blocks)
 *   https://developers.tron.network/reference/getblockbylimitnext
 * - POST /wallet/gettransactioninfobyblocknum  {num}
 *   https://developers.tron.network/reference/gettransactioninfobyblocknum
 *   https://tronprotocol.github.io/documentation-en/api/http/block-and-tx-query/gettransactioninfobyblocknum/
 * - Transaction and TransactionInfo fields (TransferContract, TriggerSmartContract, ret.contractRet,
 *   receipt.result SUCCESS / REVERT / OUT_OF_ENERGY, log address/topics/data):
 *   https://developers.tron.network/docs/tron-protocol-transaction
 *   https://developers.tron.network/reference/gettransactioninfobyid
 * - POST /wallet/triggerconstantcontract  {owner_address, contract_address, function_selector,
 *   parameter, visible}: a token's `decimals()` (constant_result), or `result.code` and a hex
 *   `message` for an address without a contract
 *   https://developers.tron.network/reference/triggerconstantcontract
 * - TRON-PRO-API-KEY header: https://developers.tron.network/reference/select-network (TronGrid)
 *
 * Money out (collections, docs/decisions/086): accounts, Stake 2.0 energy and the resource rules.
 * - POST /wallet/broadcasthex  {transaction}: the signed Transaction protobuf; answers
 *   `{result, txid}` or `{result: false, code, message (hex)}` with java-tron's codes (SIGERROR,
 *   TAPOS_ERROR, TRANSACTION_EXPIRATION_ERROR, DUP_TRANSACTION_ERROR, CONTRACT_VALIDATE_ERROR,
 *   BANDWITH_ERROR)
 *   https://developers.tron.network/reference/broadcasthex
 *   https://tronprotocol.github.io/documentation-en/api/http/transaction/broadcasthex/
 * - The transaction's id and signature: txID = sha256(raw_data), a secp256k1 recoverable
 *   signature over the id whose key's account must be the contract's owner
 *   https://developers.tron.network/docs/tron-protocol-transaction
 *   https://developers.tron.network/docs/multi-signatures (the signer's account and permission)
 * - The contracts: TransferContract (creates the recipient's account), DelegateResourceContract
 *   (the receiver must be an account: "Account[...] does not exist"; at most what the owner staked
 *   and can delegate), UnDelegateResourceContract, TriggerSmartContract (a token's `transfer`)
 *   https://developers.tron.network/docs/tron-contracttype
 *   https://tronprotocol.github.io/documentation-en/api/http/stake-v2/delegateresource/
 *   https://tronprotocol.github.io/documentation-en/api/http/stake-v2/undelegateresource/
 * - Resources: bandwidth = the transaction's bytes (signed, without `ret`) + 64 per contract; paid
 *   from staked bandwidth, else the account's free bandwidth (getFreeNetLimit a day), else burned
 *   at getTransactionFee sun a byte. A TransferContract that creates an account uses no other
 *   bandwidth: it burns getCreateNewAccountFeeInSystemContract (1 TRX), and getCreateAccountFee
 *   (0.1 TRX) unless staked bandwidth covers it (free bandwidth never does; the fake's accounts
 *   stake no bandwidth). Energy: the caller's
 *   own (staked, plus delegated to it: staked sun / 10^6 x TotalEnergyLimit / TotalEnergyWeight),
 *   the rest burned at getEnergyFee sun each up to the fee limit, else OUT_OF_ENERGY; a contract's
 *   energy is its base use times (1 + energy_factor / 10000), the dynamic energy model
 *   https://developers.tron.network/docs/resource-model
 *   https://developers.tron.network/docs/paying-for-resources
 *   https://tronprotocol.github.io/documentation-en/mechanism-algorithm/resource/
 * - Reads: POST /wallet/getchainparameters, /wallet/getaccount {address, visible},
 *   /wallet/getaccountresource {address, visible}, /wallet/getcandelegatedmaxsize
 *   {owner_address, type, visible}, /wallet/getcontractinfo {value, visible} (contract_state
 *   energy_usage, energy_factor), /wallet/triggerconstantcontract for `transfer(address,uint256)`
 *   (energy_used, energy_penalty), /wallet/gettransactioninfobyid {value}
 *   https://developers.tron.network/reference/wallet-getchainparameters
 *   https://developers.tron.network/reference/getaccount
 *   https://developers.tron.network/reference/getaccountresource
 *   https://developers.tron.network/reference/getcandelegatedmaxsize
 *   https://developers.tron.network/reference/getcontractinfo
 *   https://developers.tron.network/reference/gettransactioninfobyid
 * Simplified: state changes when a transaction is accepted (as java-tron pre-executes it), and a
 * reorganisation does not undo them; used energy and bandwidth do not recover (24 hours on chain);
 * one signature, the owner permission; a token transfer's energy is fixed per contract (to a
 * holder, to a new holder) rather than run in a virtual machine.
 *
 * As java-tron does without `visible`: addresses in hex with the 0x41 version byte (a log's address
 * without it), fields at their protobuf default left out (block 0 has no `number`), amounts in sun
 * as JSON numbers (beyond 2^53 too), `{}` for a block above the head, `{"Error": ...}` for a
 * refused request. On command it fails a share of the calls (503 or a cut connection), lags
 * behind its chain, answers execution results from behind its blocks (as a load-balanced provider
 * whose results backend trails, or a node that pruned them), stops and restarts on the same port,
 * and reorganises its newest blocks.
 */
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils.js';
import { createBase58check } from '@scure/base';
import {
  RESOURCE,
  decodeRawData,
  signerOf,
  transactionId,
  type TronContract,
  type TronRawData,
} from '@/lib/chains/tron/transactions';

const base58check = createBase58check(sha256);
const TRANSFER_TOPIC = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** Tron mainnet's genesis block id: the fake's block 0, so that its chain id is mainnet's. */
export const MAINNET_GENESIS_ID = '00000000000000001ebf88508a03865c71d452e25f4d51194196a1d22b6653dc';

/** `T...` -> "41" + 40 hex digits, as the node writes addresses. */
export function tronHex(address: string): string {
  return Buffer.from(base58check.decode(address)).toString('hex');
}

export function tronBase58(hex41: string): string {
  return base58check.encode(Buffer.from(hex41, 'hex'));
}

/** A fresh random account, base58. */
export function randomTronAccount(): string {
  return tronBase58(`41${randomBytes(20).toString('hex')}`);
}

export type ContractResult = 'SUCCESS' | 'REVERT' | 'OUT_OF_ENERGY';

export interface FakeAccount {
  balance: bigint;
  /** Sun staked for energy and not delegated (Stake 2.0 frozenV2 ENERGY). */
  stakedEnergy: bigint;
  /** Sun of staked TRX delegated to others for energy, by receiver (hex). */
  delegatedOut: Map<string, bigint>;
  /** Sun of others' staked TRX delegated to this account for energy. */
  acquiredEnergy: bigint;
  energyUsed: bigint;
  freeNetUsed: bigint;
}

/** wallet/getchainparameters on mainnet at the time of writing (sun). */
const CHAIN_PARAMETERS: [string, bigint][] = [
  ['getTransactionFee', 1000n],
  ['getEnergyFee', 100n],
  ['getCreateAccountFee', 100_000n],
  ['getCreateNewAccountFeeInSystemContract', 1_000_000n],
  ['getFreeNetLimit', 600n],
  ['getTotalEnergyLimit', 180_000_000_000n],
  ['getMaxFeeLimit', 15_000_000_000n],
];
/** java-tron's Constant.MAX_RESULT_SIZE_IN_TX: bandwidth counted per contract for its result. */
const MAX_RESULT_SIZE_IN_TX = 64n;
const DAY_MS = 86_400_000;

interface PendingTx {
  tx: Record<string, unknown>;
  info: Record<string, unknown>;
}

interface FakeBlock {
  id: string;
  number: number;
  parentHash: string;
  timestamp: number;
  txs: PendingTx[];
}

/**
 * One HTTP server in front of the fake chain, with its own way of answering: the node itself, or
 * a replica (FakeTronNode.replica) of the same chain, as a second node or a provider's backend.
 */
export interface FakeTronServer {
  url: string;
  /** Share of requests answered 503 or cut (0..1). */
  failRate: number;
  /** Blocks the node's answers stay behind its chain (as a node that is catching up). */
  lag: number;
  /**
   * Blocks its execution results (gettransactioninfobyblocknum) trail its blocks: a newer block's
   * results are answered empty, as a load-balanced provider whose results backend is behind (or a
   * node that pruned them) answers. `emptyResults` says how: `[]`, or `{}` as java-tron prints an
   * empty list.
   */
  resultsLag: number;
  emptyResults: '[]' | '{}';
  failed: number;
  /** Requests failed on purpose, by path. */
  failedCalls: Map<string, number>;
  /** Requests answered, by path. */
  calls: Map<string, number>;
  stop(): Promise<void>;
  restart(): Promise<void>;
  close(): Promise<void>;
}

export interface FakeTronNode extends FakeTronServer {
  /** Blocks between the head and the newest solidified block (java-tron: 2/3 of 27 producers + 1 = 19). */
  solidDistance: number;
  /** What each token contract (base58) answers to `decimals()`; other addresses have no contract. */
  tokenDecimals: Map<string, number>;
  /** Another server of the same chain, on its own port with its own lag and failures (closed with the node). */
  replica(): Promise<FakeTronServer>;
  /** The next block's time (ms); each block is at least 3 s after the one before. */
  clock: number | undefined;
  height(): number;
  blockId(height: number): string;
  /** Queues a TRX payment (sun) for the next block; answers its txID. */
  sendTrx(from: string, to: string, sun: bigint): string;
  /** Queues a TRC-20 `transfer(to, value)` call on `contract` with the given outcome; answers its txID. */
  sendToken(contract: string, from: string, to: string, value: bigint, result?: ContractResult): string;
  /**
   * Queues a CreateSmartContract whose constructor calls `transfer(to, value)` on the token
   * `contract` (a contract deployed to pay out at once); answers its txID.
   */
  deployPaying(contract: string, from: string, to: string, value: bigint): string;
  mine(count?: number): void;
  /** Chain parameters (wallet/getchainparameters), sun and units as java-tron names them. */
  chainParameters: Map<string, bigint>;
  /** TRX staked for energy in the whole network (TotalEnergyWeight), whole TRX. */
  totalEnergyWeight: bigint;
  /**
   * A token contract's (base58) energy per `transfer`: to a holder, to a new holder (a fresh
   * storage slot), and its dynamic energy factor in 1/10000. Set for the contracts a test uses.
   */
  tokenEnergy: Map<string, { held: bigint; fresh: bigint; factor: bigint }>;
  /** Credits an account with TRX (sun), creating it: a faucet. */
  fund(address: string, sun: bigint): void;
  /** Stakes TRX (sun) of an account for energy (Stake 2.0 FreezeBalanceV2), out of its balance. */
  stakeForEnergy(address: string, sun: bigint): void;
  account(address: string): FakeAccount | undefined;
  tokenBalance(contract: string, holder: string): bigint;
  /** Transactions accepted by broadcast, by txID, with their execution result. */
  broadcasts: Map<string, { contract: TronContract['type']; result: string; fee: bigint }>;
  /**
   * Replaces the newest `depth` blocks by `count` new ones (`depth + 1` unless given; fewer makes
   * the chain shorter) with what is queued.
   */
  reorg(depth: number, count?: number): void;
}

export async function startFakeTronNode(options: { apiKey?: string; seed?: number } = {}): Promise<FakeTronNode> {
  let state = (options.seed ?? 1) >>> 0 || 1;
  const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  const chain: FakeBlock[] = [];
  let pending: PendingTx[] = [];
  let forkSalt = 0;

  const makeBlock = (txs: PendingTx[]): FakeBlock => {
    const parent = chain[chain.length - 1];
    const number = parent ? parent.number + 1 : 0;
    const parentHash = parent?.id ?? '0'.repeat(64);
    const earliest = parent ? parent.timestamp + 3000 : 1_529_891_469_000;
    const timestamp = Math.max(earliest, node.clock ?? Date.now());
    const digest = createHash('sha256')
      .update(`${parentHash}:${number}:${forkSalt}:${txs.map((t) => t.tx.txID).join(',')}`)
      .digest('hex');
    const id = number === 0 ? MAINNET_GENESIS_ID : number.toString(16).padStart(16, '0') + digest.slice(16);
    for (const t of txs) Object.assign(t.info, { blockNumber: number, blockTimeStamp: timestamp });
    return { id, number, parentHash, timestamp, txs };
  };

  const txId = () => randomBytes(32).toString('hex');
  const word = (hex: string) => hex.padStart(64, '0');

  const newServer = (): FakeTronServer => ({
    url: '',
    failRate: 0,
    lag: 0,
    resultsLag: 0,
    emptyResults: '[]',
    failed: 0,
    failedCalls: new Map(),
    calls: new Map(),
    stop: async () => {},
    restart: async () => {},
    close: async () => {},
  });
  const accounts = new Map<string, FakeAccount>();
  /** Token balances: contract (hex) -> holder (hex) -> base units. */
  const tokens = new Map<string, Map<string, bigint>>();
  const param = (key: string) => node.chainParameters.get(key) ?? 0n;

  function creditToken(contractHex: string, holderHex: string, value: bigint): void {
    const holders = tokens.get(contractHex) ?? new Map<string, bigint>();
    holders.set(holderHex, (holders.get(holderHex) ?? 0n) + value);
    tokens.set(contractHex, holders);
  }
  function newAccount(): FakeAccount {
    return {
      balance: 0n,
      stakedEnergy: 0n,
      delegatedOut: new Map(),
      acquiredEnergy: 0n,
      energyUsed: 0n,
      freeNetUsed: 0n,
    };
  }
  /** Energy an account may use a day: its staked and acquired TRX's share of the network's limit. */
  function energyLimit(a: FakeAccount): bigint {
    if (node.totalEnergyWeight === 0n) return 0n;
    return (((a.stakedEnergy + a.acquiredEnergy) / 1_000_000n) * param('getTotalEnergyLimit')) / node.totalEnergyWeight;
  }
  /** What an account can still delegate for energy: its staked sun less the share its used energy holds. */
  function canDelegate(a: FakeAccount): bigint {
    const limit = param('getTotalEnergyLimit');
    if (limit === 0n) return 0n;
    const held = (a.energyUsed * node.totalEnergyWeight * 1_000_000n + limit - 1n) / limit;
    return a.stakedEnergy > held ? a.stakedEnergy - held : 0n;
  }
  /** A token transfer's energy: the contract's base use times (1 + factor / 10000). */
  function transferEnergy(contractHex: string, toHex: string): bigint {
    const cost = node.tokenEnergy.get(tronBase58(contractHex)) ?? { held: 14_650n, fresh: 29_650n, factor: 0n };
    const base = (tokens.get(contractHex)?.get(toHex) ?? 0n) > 0n ? cost.held : cost.fresh;
    return (base * (10_000n + cost.factor)) / 10_000n;
  }

  class Refused extends Error {
    constructor(
      readonly code: string,
      message: string,
    ) {
      super(message);
    }
  }

  /**
   * Validates and executes a signed transaction as java-tron does when it is broadcast: id,
   * signature, reference block, expiration, the contract, then bandwidth and energy. Throws Refused.
   */
  function accept(transactionHex: string): string {
    let rawBytes: Uint8Array;
    const signatures: Uint8Array[] = [];
    let raw: TronRawData;
    try {
      const envelope = readEnvelope(hexToBytes(transactionHex));
      rawBytes = envelope.raw;
      signatures.push(...envelope.signatures);
      raw = decodeRawData(rawBytes);
    } catch (error) {
      throw new Refused('OTHER_ERROR', `transaction could not be parsed: ${(error as Error).message}`);
    }
    const txID = transactionId(rawBytes);
    const c = raw.contract;
    const ownerHex = bytesToHex(c.owner);
    if (node.broadcasts.has(txID)) throw new Refused('DUP_TRANSACTION_ERROR', 'dup transaction');
    const signer = signatures.length === 1 ? signerOf(txID, signatures[0]!) : null;
    if (!signer || bytesToHex(signer) !== ownerHex) {
      throw new Refused(
        'SIGERROR',
        `Validate signature error: ${signer ? tronBase58(bytesToHex(signer)) : 'no key'} is signed by another key than the owner ${tronBase58(ownerHex)}`,
      );
    }
    const headBlock = chain[chain.length - 1]!;
    const refHeight = chain.findIndex(
      (b) =>
        b.id.slice(16, 32) === bytesToHex(raw.refBlockHash) &&
        b.number.toString(16).padStart(16, '0').slice(12, 16) === bytesToHex(raw.refBlockBytes),
    );
    if (refHeight < 0) throw new Refused('TAPOS_ERROR', 'Tapos check error');
    const expiration = Number(raw.expiration);
    if (expiration <= headBlock.timestamp || expiration > headBlock.timestamp + DAY_MS)
      throw new Refused('TRANSACTION_EXPIRATION_ERROR', 'Transaction expired');
    const owner = accounts.get(ownerHex);
    if (!owner) throw new Refused('CONTRACT_VALIDATE_ERROR', `Validate ${c.type} error, no OwnerAccount.`);

    const bytes = BigInt(transactionHex.length / 2) + MAX_RESULT_SIZE_IN_TX;
    let fee = 0n;
    let netUsage = 0n;
    const receipt: Record<string, unknown> = {};
    const burnBandwidth = () => {
      // Staked bandwidth is not modelled: free bandwidth, else TRX burned.
      const free = param('getFreeNetLimit') - owner.freeNetUsed;
      if (free >= bytes) {
        owner.freeNetUsed += bytes;
        netUsage = bytes;
        return 0n;
      }
      return bytes * param('getTransactionFee');
    };
    let result = 'SUCCESS';
    let log: unknown[] | undefined;
    switch (c.type) {
      case 'TransferContract': {
        const toHex = bytesToHex(c.to);
        if (c.amount <= 0n) throw new Refused('CONTRACT_VALIDATE_ERROR', 'Amount must be greater than 0.');
        if (toHex === ownerHex) throw new Refused('CONTRACT_VALIDATE_ERROR', 'Cannot transfer TRX to yourself.');
        const creates = !accounts.has(toHex);
        const burn = creates
          ? param('getCreateNewAccountFeeInSystemContract') + param('getCreateAccountFee')
          : burnBandwidth();
        if (owner.balance < c.amount + burn)
          throw new Refused('CONTRACT_VALIDATE_ERROR', 'Validate TransferContract error, balance is not sufficient.');
        owner.balance -= c.amount + burn;
        node.fund(tronBase58(toHex), c.amount);
        fee = burn;
        if (creates) receipt.net_fee = param('getCreateAccountFee');
        break;
      }
      case 'DelegateResourceContract': {
        const receiverHex = bytesToHex(c.receiver);
        if (c.resource !== RESOURCE.ENERGY)
          throw new Refused('CONTRACT_VALIDATE_ERROR', 'this fake delegates ENERGY only');
        if (c.balance < 1_000_000n)
          throw new Refused('CONTRACT_VALIDATE_ERROR', 'delegateBalance must be greater than or equal to 1 TRX');
        if (c.balance > canDelegate(owner))
          throw new Refused(
            'CONTRACT_VALIDATE_ERROR',
            'delegateBalance must be less than or equal to available FreezeEnergyV2 balance',
          );
        const receiver = accounts.get(receiverHex);
        if (!receiver) throw new Refused('CONTRACT_VALIDATE_ERROR', `Account[${receiverHex}] does not exist`);
        if (receiverHex === ownerHex)
          throw new Refused('CONTRACT_VALIDATE_ERROR', 'receiverAddress must not be the same as ownerAddress');
        fee = burnBandwidth();
        if (owner.balance < fee) throw new Refused('BANDWITH_ERROR', 'Account resource insufficient error.');
        owner.balance -= fee;
        owner.stakedEnergy -= c.balance;
        owner.delegatedOut.set(receiverHex, (owner.delegatedOut.get(receiverHex) ?? 0n) + c.balance);
        receiver.acquiredEnergy += c.balance;
        break;
      }
      case 'UnDelegateResourceContract': {
        const receiverHex = bytesToHex(c.receiver);
        const lent = owner.delegatedOut.get(receiverHex) ?? 0n;
        if (c.balance <= 0n || c.balance > lent)
          throw new Refused(
            'CONTRACT_VALIDATE_ERROR',
            `insufficient delegatedFrozenBalance(Energy), request=${c.balance}, unlock_balance=${lent}`,
          );
        fee = burnBandwidth();
        if (owner.balance < fee) throw new Refused('BANDWITH_ERROR', 'Account resource insufficient error.');
        owner.balance -= fee;
        owner.delegatedOut.set(receiverHex, lent - c.balance);
        owner.stakedEnergy += c.balance;
        const receiver = accounts.get(receiverHex);
        if (receiver) {
          // The receiver's used energy goes back with the stake, in proportion (Stake 2.0): it recovers at the owner.
          const held = receiver.stakedEnergy + receiver.acquiredEnergy;
          const moved = held === 0n ? 0n : (receiver.energyUsed * c.balance) / held;
          receiver.energyUsed -= moved;
          owner.energyUsed += moved;
          receiver.acquiredEnergy -= c.balance;
        }
        break;
      }
      case 'TriggerSmartContract': {
        const contractHex = bytesToHex(c.contract);
        if (!node.tokenDecimals.has(tronBase58(contractHex)))
          throw new Refused('CONTRACT_VALIDATE_ERROR', 'No contract or not a smart contract');
        if (raw.feeLimit < 0n || raw.feeLimit > param('getMaxFeeLimit'))
          throw new Refused('CONTRACT_VALIDATE_ERROR', 'feeLimit must be >= 0 and <= 15000000000');
        const bandwidthBurn = burnBandwidth();
        if (owner.balance < bandwidthBurn) throw new Refused('BANDWITH_ERROR', 'Account resource insufficient error.');
        owner.balance -= bandwidthBurn;
        const data = bytesToHex(c.data);
        const toHex = `41${data.slice(32, 72)}`;
        const value = BigInt(`0x${data.slice(72) || '0'}`);
        const needed = transferEnergy(contractHex, toHex);
        const own = energyLimit(owner) - owner.energyUsed;
        const fromOwn = own > 0n ? (own < needed ? own : needed) : 0n;
        const price = param('getEnergyFee');
        const affordable = (raw.feeLimit < owner.balance ? raw.feeLimit : owner.balance) / price;
        let energyFee: bigint;
        if (needed - fromOwn > affordable) {
          result = 'OUT_OF_ENERGY';
          owner.energyUsed += fromOwn;
          energyFee = affordable * price;
        } else {
          owner.energyUsed += fromOwn;
          energyFee = (needed - fromOwn) * price;
          const held = tokens.get(contractHex)?.get(ownerHex) ?? 0n;
          if (data.slice(0, 8) !== 'a9059cbb' || held < value) result = 'REVERT';
          else {
            tokens.get(contractHex)!.set(ownerHex, held - value);
            creditToken(contractHex, toHex, value);
            log = [
              {
                address: contractHex.slice(2),
                topics: [TRANSFER_TOPIC, word(ownerHex.slice(2)), word(toHex.slice(2))],
                data: word(value.toString(16)),
              },
            ];
          }
        }
        owner.balance -= energyFee;
        fee = bandwidthBurn + energyFee;
        Object.assign(receipt, {
          energy_usage: fromOwn,
          energy_fee: energyFee,
          energy_usage_total: result === 'OUT_OF_ENERGY' ? fromOwn + energyFee / price : needed,
          result,
        });
        break;
      }
    }
    if (netUsage > 0n) receipt.net_usage = netUsage;
    else if (fee > 0n && c.type !== 'TriggerSmartContract' && receipt.net_fee === undefined) receipt.net_fee = fee;
    node.broadcasts.set(txID, { contract: c.type, result, fee });
    const json = {
      ret: [{ contractRet: result }],
      signature: signatures.map(bytesToHex),
      txID,
      raw_data: rawDataJson(raw),
      raw_data_hex: bytesToHex(rawBytes),
    };
    const info: Record<string, unknown> = {
      id: txID,
      ...(fee > 0n && { fee }),
      receipt,
      ...(log && { log }),
      ...(result !== 'SUCCESS' && { result: 'FAILED' }),
    };
    pending.push({ tx: json, info });
    return txID;
  }

  const node: FakeTronNode = {
    ...newServer(),
    solidDistance: 19,
    tokenDecimals: new Map(),
    clock: undefined,
    chainParameters: new Map(CHAIN_PARAMETERS),
    totalEnergyWeight: 19_000_000_000n,
    tokenEnergy: new Map(),
    broadcasts: new Map(),
    fund(address, sun) {
      const hex = tronHex(address);
      const a = accounts.get(hex) ?? newAccount();
      a.balance += sun;
      accounts.set(hex, a);
    },
    stakeForEnergy(address, sun) {
      const a = accounts.get(tronHex(address));
      if (!a || a.balance < sun) throw new Error(`${address} has not ${sun} sun to stake`);
      a.balance -= sun;
      a.stakedEnergy += sun;
      node.totalEnergyWeight += sun / 1_000_000n;
    },
    account: (address) => accounts.get(tronHex(address)),
    tokenBalance: (contract, holder) => tokens.get(tronHex(contract))?.get(tronHex(holder)) ?? 0n,
    height: () => chain[chain.length - 1]!.number,
    blockId: (height) => chain[height]!.id,
    sendTrx(from, to, sun) {
      const id = txId();
      const tx = {
        ret: [{ contractRet: 'SUCCESS' }],
        signature: [randomBytes(65).toString('hex')],
        txID: id,
        raw_data: {
          contract: [
            {
              parameter: {
                value: { amount: sun, owner_address: tronHex(from), to_address: tronHex(to) },
                type_url: 'type.googleapis.com/protocol.TransferContract',
              },
              type: 'TransferContract',
            },
          ],
          ref_block_bytes: '0000',
          ref_block_hash: '0000000000000000',
          expiration: Date.now() + 60_000,
          timestamp: Date.now(),
        },
      };
      pending.push({ tx, info: { id, contractResult: [''], receipt: { net_usage: 267 } } });
      node.fund(to, sun);
      return id;
    },
    sendToken(contract, from, to, value, result = 'SUCCESS') {
      const id = txId();
      const contractHex = tronHex(contract);
      const data = `a9059cbb${word(tronHex(to).slice(2))}${word(value.toString(16))}`;
      const tx = {
        ret: [{ contractRet: result }],
        signature: [randomBytes(65).toString('hex')],
        txID: id,
        raw_data: {
          contract: [
            {
              parameter: {
                value: { data, owner_address: tronHex(from), contract_address: contractHex },
                type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
              },
              type: 'TriggerSmartContract',
            },
          ],
          ref_block_bytes: '0000',
          ref_block_hash: '0000000000000000',
          expiration: Date.now() + 60_000,
          fee_limit: 100_000_000,
          timestamp: Date.now(),
        },
      };
      const ok = result === 'SUCCESS';
      if (ok) creditToken(contractHex, tronHex(to), value);
      const info: Record<string, unknown> = {
        id,
        fee: 13_844_850,
        contractResult: [ok ? word('1') : ''],
        contract_address: contractHex,
        receipt: { energy_fee: 13_499_850, energy_usage_total: 31_895, net_fee: 345_000, result },
        ...(ok
          ? {
              log: [
                {
                  address: contractHex.slice(2),
                  topics: [TRANSFER_TOPIC, word(tronHex(from).slice(2)), word(tronHex(to).slice(2))],
                  data: word(value.toString(16)),
                },
              ],
            }
          : {
              result: 'FAILED',
              resMessage: Buffer.from(result === 'REVERT' ? 'REVERT opcode executed' : 'Not enough energy').toString(
                'hex',
              ),
            }),
      };
      pending.push({ tx, info });
      return id;
    },
    deployPaying(contract, from, to, value) {
      const id = txId();
      const created = `41${randomBytes(20).toString('hex')}`;
      const tx = {
        ret: [{ contractRet: 'SUCCESS' }],
        signature: [randomBytes(65).toString('hex')],
        txID: id,
        raw_data: {
          contract: [
            {
              parameter: {
                value: {
                  owner_address: tronHex(from),
                  new_contract: { bytecode: '6080604052', name: 'Payer', origin_address: tronHex(from) },
                },
                type_url: 'type.googleapis.com/protocol.CreateSmartContract',
              },
              type: 'CreateSmartContract',
            },
          ],
          ref_block_bytes: '0000',
          ref_block_hash: '0000000000000000',
          expiration: Date.now() + 60_000,
          fee_limit: 1_000_000_000,
          timestamp: Date.now(),
        },
      };
      const contractHex = tronHex(contract);
      const info = {
        id,
        fee: 120_000_000,
        contractResult: [''],
        contract_address: created,
        receipt: { energy_fee: 119_000_000, energy_usage_total: 280_000, net_fee: 1_000_000, result: 'SUCCESS' },
        // The constructor's call to the token: the Transfer log is the token's, its sender the new contract.
        log: [
          {
            address: contractHex.slice(2),
            topics: [TRANSFER_TOPIC, word(created.slice(2)), word(tronHex(to).slice(2))],
            data: word(value.toString(16)),
          },
        ],
      };
      pending.push({ tx, info });
      return id;
    },
    mine(count = 1) {
      for (let i = 0; i < count; i++) {
        chain.push(makeBlock(pending));
        pending = [];
      }
    },
    reorg(depth, count = depth + 1) {
      forkSalt++;
      chain.splice(chain.length - depth, depth);
      node.mine(count);
    },
    replica: async () => {
      const replica = newServer();
      replicas.push(replica);
      await serve(replica);
      return replica;
    },
  };
  const replicas: FakeTronServer[] = [];
  node.mine(1); // block 0

  const header = (b: FakeBlock) => ({
    raw_data: {
      ...(b.number > 0 && { number: b.number }),
      txTrieRoot: '0'.repeat(64),
      witness_address: '41' + '11'.repeat(20),
      parentHash: b.parentHash,
      version: 31,
      ...(b.timestamp > 0 && { timestamp: b.timestamp }),
    },
    witness_signature: 'ab'.repeat(65),
  });
  const full = (b: FakeBlock) => ({
    blockID: b.id,
    block_header: header(b),
    ...(b.txs.length && { transactions: b.txs.map((t) => t.tx) }),
  });

  function answer(server: FakeTronServer, path: string, body: Record<string, unknown>): unknown {
    const head = Math.max(0, node.height() - server.lag);
    switch (path) {
      case '/wallet/getblock':
      case '/walletsolidity/getblock': {
        const top = path.startsWith('/walletsolidity') ? Math.max(0, head - node.solidDistance) : head;
        const asked = body.id_or_num === undefined || body.id_or_num === '' ? top : Number(body.id_or_num);
        if (!Number.isInteger(asked) || asked < 0)
          return { Error: 'class java.lang.NumberFormatException : For input string' };
        const b = asked <= top ? chain[asked] : undefined;
        if (!b) return {};
        return body.detail === true ? full(b) : { blockID: b.id, block_header: header(b) };
      }
      case '/wallet/getblockbynum': {
        const asked = Number(body.num);
        if (!Number.isInteger(asked) || asked < 0) return { Error: 'class java.lang.NumberFormatException : num' };
        const b = asked <= head ? chain[asked] : undefined;
        return b ? full(b) : {};
      }
      case '/wallet/getblockbylimitnext': {
        const start = Number(body.startNum);
        const end = Number(body.endNum);
        if (!(Number.isInteger(start) && Number.isInteger(end)) || end - start > 100 || start < 0 || end <= start) {
          return { Error: 'class java.lang.Exception : startNum or endNum is out of range' };
        }
        const blocks = chain.slice(start, Math.min(end, head + 1)).map(full);
        return blocks.length ? { block: blocks } : {};
      }
      case '/wallet/gettransactioninfobyblocknum': {
        const num = Number(body.num);
        const b = num <= head - server.resultsLag ? chain[num] : undefined;
        if (!b || b.txs.length === 0) return server.emptyResults === '{}' ? {} : [];
        return b.txs.map((t) => t.info);
      }
      case '/wallet/broadcasthex': {
        try {
          const txid = accept(String(body.transaction ?? ''));
          return { result: true, txid };
        } catch (error) {
          if (!(error instanceof Refused)) throw error;
          return { result: false, code: error.code, message: Buffer.from(error.message).toString('hex') };
        }
      }
      case '/wallet/getchainparameters':
        return {
          chainParameter: [...node.chainParameters].map(([key, value]) => (value === 0n ? { key } : { key, value })),
        };
      case '/wallet/getaccount': {
        const hex = addressOf(body.address, body.visible);
        const a = hex && accounts.get(hex);
        if (!a) return {};
        const lent = [...a.delegatedOut.values()].reduce((x, y) => x + y, 0n);
        return {
          address: hex,
          ...(a.balance > 0n && { balance: a.balance }),
          frozenV2: [
            {},
            { type: 'ENERGY', ...(a.stakedEnergy > 0n && { amount: a.stakedEnergy }) },
            { type: 'TRON_POWER' },
          ],
          account_resource: {
            ...(a.energyUsed > 0n && { energy_usage: a.energyUsed }),
            ...(lent > 0n && { delegated_frozenV2_balance_for_energy: lent }),
            ...(a.acquiredEnergy > 0n && { acquired_delegated_frozenV2_balance_for_energy: a.acquiredEnergy }),
          },
        };
      }
      case '/wallet/getaccountresource': {
        const hex = addressOf(body.address, body.visible);
        const a = (hex && accounts.get(hex)) || newAccount();
        const energy = energyLimit(a);
        return {
          ...(a.freeNetUsed > 0n && { freeNetUsed: a.freeNetUsed }),
          freeNetLimit: param('getFreeNetLimit'),
          TotalNetLimit: 43_200_000_000n,
          TotalNetWeight: 26_000_000_000n,
          ...(a.energyUsed > 0n && { EnergyUsed: a.energyUsed }),
          ...(energy > 0n && { EnergyLimit: energy }),
          TotalEnergyLimit: param('getTotalEnergyLimit'),
          TotalEnergyWeight: node.totalEnergyWeight,
        };
      }
      case '/wallet/getcandelegatedmaxsize': {
        const hex = addressOf(body.owner_address, body.visible);
        const a = hex && accounts.get(hex);
        if (!a) return { Error: 'class org.tron.core.exception.ContractValidateException : account not exists' };
        const size = Number(body.type) === 1 ? canDelegate(a) : 0n;
        return size > 0n ? { max_size: size } : {};
      }
      case '/wallet/getcontractinfo': {
        const hex = addressOf(body.value, body.visible);
        const cost = hex ? node.tokenEnergy.get(tronBase58(hex)) : undefined;
        if (!hex || !node.tokenDecimals.has(tronBase58(hex))) return {};
        return {
          runtimecode: '6080',
          smart_contract: { contract_address: hex, name: 'Token' },
          contract_state: { energy_usage: 0, ...(cost?.factor && { energy_factor: cost.factor }), update_cycle: 1 },
        };
      }
      case '/wallet/gettransactionbyid': {
        const id = String(body.value ?? '').toLowerCase();
        for (const b of chain.slice(0, head + 1)) {
          const t = b.txs.find((x) => x.tx.txID === id);
          if (t) return t.tx;
        }
        return {};
      }
      case '/wallet/gettransactioninfobyid': {
        const id = String(body.value ?? '').toLowerCase();
        for (const b of chain.slice(0, head + 1)) {
          const t = b.txs.find((x) => x.tx.txID === id);
          if (t) return t.info;
        }
        return {};
      }
      case '/wallet/triggerconstantcontract': {
        const contractHex = addressOf(body.contract_address, body.visible);
        const decimals = contractHex ? node.tokenDecimals.get(tronBase58(contractHex)) : undefined;
        if (body.function_selector === 'balanceOf(address)' && decimals !== undefined) {
          const holder = `41${String(body.parameter ?? '').slice(24, 64)}`;
          const balance = tokens.get(contractHex!)?.get(holder) ?? 0n;
          return { result: { result: true }, energy_used: 538, constant_result: [word(balance.toString(16))] };
        }
        if (body.function_selector === 'transfer(address,uint256)' && decimals !== undefined) {
          const toHex = `41${String(body.parameter ?? '').slice(24, 64)}`;
          const energy = transferEnergy(contractHex!, toHex);
          const cost = node.tokenEnergy.get(tronBase58(contractHex!));
          const base = cost ? (energy * 10_000n) / (10_000n + cost.factor) : energy;
          return {
            result: { result: true },
            energy_used: energy,
            ...(energy > base && { energy_penalty: energy - base }),
            constant_result: [word('1')],
            transaction: { ret: [{}], visible: false, txID: randomBytes(32).toString('hex'), raw_data: {} },
          };
        }
        if (body.function_selector !== 'decimals()' || decimals === undefined)
          return {
            result: {
              code: 'CONTRACT_VALIDATE_ERROR',
              message: Buffer.from('Smart contract is not exist.').toString('hex'),
            },
          };
        return {
          result: { result: true },
          energy_used: 238,
          constant_result: [word(decimals.toString(16))],
          transaction: { ret: [{}], visible: true, txID: randomBytes(32).toString('hex'), raw_data: {} },
        };
      }
      default:
        return undefined;
    }
  }

  /** Puts `server` on 127.0.0.1 (a free port, kept across stop and restart). */
  async function serve(server: FakeTronServer): Promise<void> {
    const http_ = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = new URL(req.url ?? '/', 'http://x').pathname;
        if (random() < server.failRate) {
          server.failed++;
          server.failedCalls.set(path, (server.failedCalls.get(path) ?? 0) + 1);
          if (random() < 0.5) return void res.writeHead(503).end('Service Unavailable');
          return req.socket.destroy();
        }
        if (options.apiKey !== undefined && req.headers['tron-pro-api-key'] !== options.apiKey) {
          return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"Error":"ApiKey not exists"}');
        }
        let body: Record<string, unknown>;
        try {
          const text = Buffer.concat(chunks).toString('utf8');
          body = text ? JSON.parse(text) : {};
        } catch {
          return void res
            .writeHead(200, { 'content-type': 'application/json' })
            .end('{"Error":"com.alibaba.fastjson.JSONException"}');
        }
        const result = answer(server, path, body);
        if (result === undefined) return void res.writeHead(404).end();
        server.calls.set(path, (server.calls.get(path) ?? 0) + 1);
        res.writeHead(200, { 'content-type': 'application/json' }).end(json(result));
      });
    });
    let port = 0;
    const listen = () => new Promise<void>((resolve) => http_.listen(port, '127.0.0.1', resolve));
    await listen();
    port = (http_.address() as AddressInfo).port;
    server.url = `http://127.0.0.1:${port}`;
    const stop = () =>
      new Promise<void>((resolve) => {
        if (!http_.listening) return resolve();
        http_.closeAllConnections();
        http_.close(() => resolve());
      });
    server.stop = stop;
    server.restart = listen;
    server.close = stop;
  }

  await serve(node);
  const closeNode = node.close;
  node.close = async () => {
    await Promise.all([closeNode(), ...replicas.map((r) => r.close())]);
  };
  return node;
}

/**
 * `Transaction { raw raw_data = 1; repeated bytes signature = 2; repeated Result ret = 5; }`: the
 * fake's own reading of the envelope (the contract inside is read by the code under test's decoder,
 * which tests/…/transactions.test.ts checks against java-tron's own output).
 */
function readEnvelope(bytes: Uint8Array): { raw: Uint8Array; signatures: Uint8Array[] } {
  let at = 0;
  const varint = () => {
    let value = 0;
    for (let shift = 0; shift < 35; shift += 7) {
      const byte = bytes[at++];
      if (byte === undefined) throw new Error('truncated');
      value += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('varint too long');
  };
  let raw: Uint8Array | undefined;
  const signatures: Uint8Array[] = [];
  while (at < bytes.length) {
    const key = varint();
    if ((key & 7) !== 2) throw new Error(`field ${key >> 3} is not length-delimited`);
    const length = varint();
    const value = bytes.slice(at, at + length);
    if (value.length !== length) throw new Error('truncated field');
    at += length;
    if (key >> 3 === 1) raw = value;
    else if (key >> 3 === 2) signatures.push(value);
    else if (key >> 3 !== 5) throw new Error(`unknown field ${key >> 3}`);
  }
  if (!raw) throw new Error('no raw_data');
  return { raw, signatures };
}

/** raw_data as java-tron prints it without `visible` (hex addresses, enum names). */
function rawDataJson(raw: TronRawData): Record<string, unknown> {
  const c = raw.contract;
  const hex = bytesToHex;
  const value: Record<string, unknown> =
    c.type === 'TransferContract'
      ? { amount: c.amount, owner_address: hex(c.owner), to_address: hex(c.to) }
      : c.type === 'TriggerSmartContract'
        ? { data: hex(c.data), owner_address: hex(c.owner), contract_address: hex(c.contract) }
        : {
            ...(c.resource === RESOURCE.ENERGY && { resource: 'ENERGY' }),
            balance: c.balance,
            receiver_address: hex(c.receiver),
            owner_address: hex(c.owner),
          };
  return {
    contract: [{ parameter: { value, type_url: `type.googleapis.com/protocol.${c.type}` }, type: c.type }],
    ref_block_bytes: hex(raw.refBlockBytes),
    ref_block_hash: hex(raw.refBlockHash),
    expiration: raw.expiration,
    ...(raw.feeLimit > 0n && { fee_limit: raw.feeLimit }),
    timestamp: raw.timestamp,
  };
}

/** An address from a request: base58 with `visible`, else hex ("41..."); null for neither. */
function addressOf(value: unknown, visible: unknown): string | null {
  const text = String(value ?? '');
  try {
    if (visible === true || text.startsWith('T')) return tronHex(text);
  } catch {
    return null;
  }
  return /^41[0-9a-fA-F]{40}$/.test(text) ? text.toLowerCase() : null;
}

/** JSON with bigints written as JSON numbers, as java-tron writes sun amounts. */
function json(value: unknown): string {
  return JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `__big__${v}` : v)).replace(/"__big__(\d+)"/g, '$1');
}
