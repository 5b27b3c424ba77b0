/**
 * What the signer checks before it signs an EVM collection plan, and the signing
 * (docs/decisions/085). It trusts nothing the plan says of itself: it decodes every transaction and
 * authorization and signs only when all of them are one of these, each key derived from its own seed:
 *
 * - `sweep`: from its gas payer (the path in its configuration) to the sweeper it computes from its
 *   own treasury, no value, calldata exactly `sweepMany(accounts, tokens)` with tokens of its
 *   configuration and accounts exactly the authorizations' addresses; each authorization delegates
 *   a deposit address of its seed to that sweeper, on its chain id (never 0);
 * - `clear`: from the gas payer to itself, no value, no calldata; each authorization delegates a
 *   deposit address of its seed to address 0 (clears it), on its chain id;
 * - `fund`: from the gas payer, native coin only, to a deposit address it derives itself;
 * - `transfer`: from a deposit address of its seed, either the native coin to its treasury, or
 *   calldata exactly `transfer(treasury, amount)` to a token contract of its configuration;
 *
 * and the gas payer spends at most its configured cap (each of its transactions' gas at its fee cap,
 * plus what it funds). A plan that breaks any of these is refused as a whole, with every reason.
 */
import { HDKey } from '@scure/bip32';
import {
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  keccak256,
  parseAbiItem,
  toHex,
  zeroAddress,
  type Address,
  type Hex,
  type SignedAuthorization,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { EvmCollectionPlan, EvmUnsignedTransaction } from './types';
import { SignerRefusal } from '../../utxo/transactions';
import { gasPayerSpend } from './plan';
import { SWEEPER_ABI, sweeperAddress } from './sweeper';

/** The deposit addresses' chain (lib/chains derivation): m/44'/60'/0'/0/<index>. */
export const EVM_DEPOSIT_CHAIN_PATH = "m/44'/60'/0'/0";
/** The gas payer's default path: account 1 of the same coin type, apart from every deposit address. */
export const EVM_GAS_PAYER_PATH = "m/44'/60'/1'/0/0";

export interface EvmSignerPolicy {
  chainId: number;
  /** The treasury pinned in the signer's configuration: the sweeper it allows is the one paying it. */
  treasury: string;
  /** Token contracts a plan may move (a sweep reads and moves them, a transfer calls them). */
  tokens: readonly string[];
  gasPayerPath: string;
  /** The most the gas payer may spend on one plan, in wei. */
  maxGasPayerSpend: bigint;
}

const ERC20_TRANSFER = parseAbiItem('function transfer(address to, uint256 amount) returns (bool)');
/** Calls a plan could slip in, named in the refusal. */
const KNOWN_SELECTORS: Record<string, string> = {
  '0x095ea7b3': 'approve(address,uint256)',
  '0x23b872dd': 'transferFrom(address,address,uint256)',
  '0x39509351': 'increaseAllowance(address,uint256)',
  '0xd505accf': 'permit(...)',
  '0xa9059cbb': 'transfer(address,uint256)',
};
const describeCall = (data: string) =>
  KNOWN_SELECTORS[data.slice(0, 10).toLowerCase()] ?? `selector ${data.slice(0, 10)}`;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * The keys of `root` by path, each parent derived once: a plan names hundreds of siblings under the
 * deposit chain, and deriving each from the master again costs five derivations instead of one.
 */
function keyring(root: HDKey): (path: string) => HDKey {
  const keys = new Map<string, HDKey>([['m', root]]);
  const at = (path: string): HDKey => {
    let key = keys.get(path);
    if (key) return key;
    const cut = path.lastIndexOf('/');
    const step = path.slice(cut + 1);
    const index = Number.parseInt(step, 10) + (step.endsWith("'") ? 0x80000000 : 0);
    key = at(path.slice(0, cut)).deriveChild(index);
    keys.set(path, key);
    return key;
  };
  return at;
}

export function addressOfKey(key: HDKey): Address {
  return privateKeyToAccount(toHex(key.privateKey!)).address;
}

function isDepositPath(path: string): boolean {
  return new RegExp(`^${EVM_DEPOSIT_CHAIN_PATH.replace(/'/g, "'")}/\\d{1,10}$`).test(path);
}

/** What the signer shows before it signs, from what it decoded. */
export interface EvmReview {
  swept: Address[];
  cleared: Address[];
  funded: { address: Address; value: bigint }[];
  nativeToTreasury: bigint;
  tokenToTreasury: Map<string, bigint>;
  gasPayerSpend: bigint;
}

/**
 * Checks every transaction of `plan` against `policy` and the seed `root`; throws SignerRefusal
 * with every reason, or answers what the plan does.
 */
export function reviewEvmPlan(plan: EvmCollectionPlan, root: HDKey, policy: EvmSignerPolicy): EvmReview {
  const reasons: string[] = [];
  const treasury = getAddress(policy.treasury);
  const sweeper = sweeperAddress(treasury);
  const tokens = new Set(policy.tokens.map((t) => t.toLowerCase()));
  const keyAt = keyring(root);
  const gasPayer = addressOfKey(keyAt(policy.gasPayerPath));
  const derived = new Map<string, Address>();
  const deposit = (path: string): Address | null => {
    if (!isDepositPath(path)) return null;
    let address = derived.get(path);
    if (!address) derived.set(path, (address = addressOfKey(keyAt(path))));
    return address;
  };
  if (plan.chainId !== policy.chainId)
    reasons.push(`the plan is for chain id ${plan.chainId}; this signer signs chain id ${policy.chainId}`);
  if (!same(plan.treasury, treasury))
    reasons.push(`the plan pays the treasury ${plan.treasury}; this signer's treasury is ${treasury}`);
  if (!same(plan.sweeper, sweeper))
    reasons.push(`the plan names the sweeper ${plan.sweeper}; the sweeper of this signer's treasury is ${sweeper}`);

  const review: EvmReview = {
    swept: [],
    cleared: [],
    funded: [],
    nativeToTreasury: 0n,
    tokenToTreasury: new Map(),
    gasPayerSpend: 0n,
  };
  plan.transactions.forEach((tx, index) => {
    const at = `transaction ${index + 1} (${tx.purpose}, nonce ${tx.nonce})`;
    const refuse = (why: string) => reasons.push(`${at}: ${why}`);
    if (tx.chainId !== policy.chainId) refuse(`is for chain id ${tx.chainId}; this signer signs ${policy.chainId}`);
    if (BigInt(tx.maxPriorityFeePerGas) > BigInt(tx.maxFeePerGas)) refuse('its priority fee is above its fee cap');
    const fromGasPayer = tx.path === policy.gasPayerPath;
    const signer = fromGasPayer ? gasPayer : deposit(tx.path);
    if (!signer)
      return refuse(`is signed at ${tx.path}, which is neither the gas payer's path nor a deposit address's`);
    if (!same(signer, tx.from)) return refuse(`names ${tx.from} as its sender; the key at ${tx.path} is ${signer}`);
    const typeFour = tx.purpose === 'sweep' || tx.purpose === 'clear';
    if (!typeFour && tx.authorizations.length > 0) refuse('carries authorizations, which only a sweep or a clear may');
    if (typeFour && tx.authorizations.length === 0) refuse('carries no authorization');
    if (typeFour || tx.purpose === 'fund') {
      if (!fromGasPayer) return refuse('must come from the gas payer');
    } else if (fromGasPayer) return refuse('must come from a deposit address');
    const authorized: Address[] = [];
    for (const auth of tx.authorizations) {
      const own = deposit(auth.path);
      if (!own || !same(own, auth.address))
        refuse(`an authorization names ${auth.address} at ${auth.path}, not a deposit address of this seed`);
      if (auth.chainId !== policy.chainId)
        refuse(
          auth.chainId === 0
            ? `the authorization of ${auth.address} is for chain id 0 (every chain): never signed`
            : `the authorization of ${auth.address} is for chain id ${auth.chainId}; this signer signs ${policy.chainId}`,
        );
      const expected = tx.purpose === 'sweep' ? sweeper : zeroAddress;
      if (!same(auth.contract, expected))
        refuse(
          `the authorization of ${auth.address} delegates to ${auth.contract}; a ${tx.purpose} may only delegate to ${expected}`,
        );
      authorized.push(getAddress(auth.address));
    }
    if (new Set(authorized.map((a) => a.toLowerCase())).size !== authorized.length)
      refuse('authorizes an address twice');
    switch (tx.purpose) {
      case 'sweep': {
        if (!same(tx.to, sweeper))
          return refuse(`calls ${tx.to}, not the sweeper of this signer's treasury (${sweeper})`);
        if (BigInt(tx.value) !== 0n) refuse('sends value to the sweeper');
        let call;
        try {
          call = decodeFunctionData({ abi: SWEEPER_ABI, data: tx.data as Hex });
        } catch {
          return refuse(`calls ${describeCall(tx.data)} on the sweeper, not sweepMany`);
        }
        if (call.functionName !== 'sweepMany')
          return refuse(`calls ${call.functionName} on the sweeper, not sweepMany`);
        const [accounts, calledTokens] = call.args as readonly [readonly Address[], readonly Address[]];
        if (
          encodeFunctionData({ abi: SWEEPER_ABI, functionName: 'sweepMany', args: [accounts, calledTokens] }) !==
          tx.data.toLowerCase()
        )
          refuse('carries calldata beyond sweepMany(accounts, tokens)');
        for (const token of calledTokens)
          if (!tokens.has(token.toLowerCase())) refuse(`sweeps ${token}, a token not in this signer's configuration`);
        if (accounts.length !== authorized.length || accounts.some((a, i) => !same(a, authorized[i]!)))
          refuse('sweeps accounts other than the ones it authorizes');
        review.swept.push(...authorized);
        break;
      }
      case 'clear':
        if (!same(tx.to, gasPayer)) refuse(`is sent to ${tx.to}; a clear is sent by the gas payer to itself`);
        if (BigInt(tx.value) !== 0n || tx.data !== '0x') refuse('carries value or calldata');
        review.cleared.push(...authorized);
        break;
      case 'fund': {
        const own = tx.toPath ? deposit(tx.toPath) : null;
        if (!own || !same(own, tx.to))
          return refuse(`funds ${tx.to}, which is not a deposit address this signer derives`);
        if (tx.data !== '0x') refuse('carries calldata');
        review.funded.push({ address: own, value: BigInt(tx.value) });
        break;
      }
      case 'transfer': {
        if (same(tx.to, treasury)) {
          if (tx.data !== '0x') refuse('calls the treasury; a native transfer carries no calldata');
          review.nativeToTreasury += BigInt(tx.value);
          break;
        }
        if (!tokens.has(tx.to.toLowerCase()))
          return refuse(`is sent to ${tx.to}, neither the treasury nor a token of this signer's configuration`);
        if (BigInt(tx.value) !== 0n) refuse('sends the native coin to a token contract');
        let call;
        try {
          call = decodeFunctionData({ abi: [ERC20_TRANSFER], data: tx.data as Hex });
        } catch {
          return refuse(
            `calls ${describeCall(tx.data)} on the token ${tx.to}; only transfer to the treasury is signed`,
          );
        }
        const [to, amount] = call.args;
        if (!same(to, treasury)) refuse(`transfers the token to ${to}, not to the treasury`);
        if (encodeFunctionData({ abi: [ERC20_TRANSFER], args: [to, amount] }) !== tx.data.toLowerCase())
          refuse('carries calldata beyond transfer(treasury, amount)');
        const key = getAddress(tx.to);
        review.tokenToTreasury.set(key, (review.tokenToTreasury.get(key) ?? 0n) + amount);
        break;
      }
    }
  });
  review.gasPayerSpend = gasPayerSpend(plan.transactions, gasPayer);
  if (review.gasPayerSpend > policy.maxGasPayerSpend)
    reasons.push(
      `the gas payer would spend up to ${review.gasPayerSpend} wei; this signer's cap is ${policy.maxGasPayerSpend} wei`,
    );
  if (reasons.length > 0) throw new SignerRefusal(reasons);
  return review;
}

export interface SignedEvmTransaction {
  purpose: EvmUnsignedTransaction['purpose'];
  from: Address;
  nonce: number;
  hash: Hex;
  raw: Hex;
}

/** A plan's transaction (its decimal strings) as the fields viem signs for an EIP-1559 or EIP-7702 transaction. */
export function feeMarketFields(tx: {
  chainId: number;
  nonce: number;
  to: string;
  value: string;
  data: string;
  gas: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
}) {
  return {
    chainId: tx.chainId,
    nonce: tx.nonce,
    to: getAddress(tx.to),
    value: BigInt(tx.value),
    data: tx.data as Hex,
    gas: BigInt(tx.gas),
    maxFeePerGas: BigInt(tx.maxFeePerGas),
    maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas),
  };
}

/** Signs every transaction of a plan `reviewEvmPlan` accepted, in its order. */
export async function signEvmPlan(plan: EvmCollectionPlan, root: HDKey): Promise<SignedEvmTransaction[]> {
  const keyAt = keyring(root);
  // A deposit key signs two authorizations (the sweep's and the clear's): its account is made once.
  const accounts = new Map<string, ReturnType<typeof privateKeyToAccount>>();
  const accountAt = (path: string) => {
    let account = accounts.get(path);
    if (!account) accounts.set(path, (account = privateKeyToAccount(toHex(keyAt(path).privateKey!))));
    return account;
  };
  const signed: SignedEvmTransaction[] = [];
  for (const tx of plan.transactions) {
    const account = accountAt(tx.path);
    const authorizationList: SignedAuthorization[] = [];
    for (const auth of tx.authorizations) {
      const authority = accountAt(auth.path);
      authorizationList.push(
        await authority.signAuthorization({
          address: getAddress(auth.contract),
          chainId: auth.chainId,
          nonce: auth.nonce,
        }),
      );
    }
    const common = feeMarketFields(tx);
    const raw =
      authorizationList.length > 0
        ? await account.signTransaction({ ...common, type: 'eip7702', authorizationList })
        : await account.signTransaction({ ...common, type: 'eip1559' });
    signed.push({ purpose: tx.purpose, from: account.address, nonce: tx.nonce, hash: keccak256(raw), raw });
  }
  return signed;
}
