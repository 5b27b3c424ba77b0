/**
 * A Solana JSON-RPC FACADE for tests over litesvm (npm `litesvm`): no Solana validator is packaged
 * for this machine, but the real runtime is, and litesvm runs the real System, SPL Token,
 * Token-2022 and Associated Token Account programs in process (`withDefaultPrograms`). Every
 * transaction the tests send is executed by them; what it did (balances, failure) is read from the
 * runtime's accounts before and after, never written by hand. The facade answers, over HTTP
 * JSON-RPC on 127.0.0.1, the methods the adapter (lib/chains/solana) uses, in the shapes of
 * https://solana.com/docs/rpc/http: getSlot, getBlock (`transactionDetails: "none"`), getBlocks,
 * getBlocksWithLimit, getSignaturesForAddress (`limit`, `before`, `until`), getTransaction
 * (`encoding: "json"`), getAccountInfo (`encoding: "base64"`) and getLatestBlockhash; and
 * sendTransaction (`encoding: "base64"`), which a browser wallet in e2e/pay-wallet-solana.spec.ts
 * relays to, run at once in a new slot with no preflight (a failing one is kept with its error).
 *
 * What it INVENTS, since litesvm has none of it:
 * - Slots and blocks: each `send` (or `skip`) moves to a new slot, a transaction's block being
 *   the slot it was sent in (or, with `autoSeal` off, `seal()` puts the transactions sent since the
 *   last block into one), whose hash is random, whose parent is the previous block and whose time
 *   is one second a slot from `GENESIS_TIME`. `skip(n)` leaves n slots without a block
 *   (getBlock answers -32007 there, as a node does for a skipped slot).
 * - Commitment: every block is finalized at once; a request's commitment is accepted and ignored.
 *   `lag` keeps the newest blocks out of every answer, as a node behind the others is.
 * - The address index (getSignaturesForAddress): kept by the facade from each transaction's
 *   account keys (static keys; no lookup tables are used), newest first.
 * - Balances: `preBalances`/`postBalances` and `pre/postTokenBalances` are the runtime's accounts
 *   read just before and after the transaction (token accounts of the SPL Token and Token-2022
 *   programs: mint, owner and amount at their layout's offsets).
 * - Fees: litesvm charges its own; nothing here depends on their size.
 *
 * Tests drive it: `send(tx)` runs a transaction in a new slot, `stop()`/`start()` take it off its
 * port and back; `calls` counts requests by method (the bench reads it).
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase58Decoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
  type Transaction,
} from '@solana/kit';
import { getTransferSolInstruction } from '@solana-program/system';
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getMintToInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token';

export const TOKEN_2022_PROGRAM = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
const GENESIS_TIME = 1_700_000_000;

/** litesvm ships binaries for these platforms only (its package's optionalDependencies). */
const LITESVM_PLATFORMS = new Set([
  'linux-x64-gnu',
  'linux-x64-musl',
  'linux-arm64-gnu',
  'linux-arm64-musl',
  'darwin-x64',
  'darwin-arm64',
]);
function platform(): string {
  if (process.platform !== 'linux') return `${process.platform}-${process.arch}`;
  const glibc = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
    ?.glibcVersionRuntime;
  return `linux-${process.arch}-${glibc ? 'gnu' : 'musl'}`;
}
/** Why the Solana tests skip here, or undefined where litesvm runs (Windows, 32-bit ARM, FreeBSD... have no binary). */
export const litesvmMissing: string | undefined = LITESVM_PLATFORMS.has(platform())
  ? undefined
  : `litesvm has no binary for ${platform()} (only linux x64/arm64 gnu and musl, darwin x64/arm64): the Solana tests are skipped`;
if (litesvmMissing) console.warn(litesvmMissing);

interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  uiTokenAmount: { amount: string; decimals: number; uiAmount: null; uiAmountString: string };
}

interface Recorded {
  signature: string;
  slot: number;
  err: unknown;
  keys: string[];
  header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
  instructions: { programIdIndex: number; accounts: number[]; data: string }[];
  preBalances: number[];
  postBalances: number[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
}

interface Block {
  slot: number;
  hash: string;
  parentHash: string;
  parentSlot: number;
  time: number;
  signatures: string[];
}

export interface SolanaFacade {
  url: string;
  /** Requests answered, by method. */
  calls: Map<string, number>;
  /** Blocks a node behind would not have yet: they are left out of every answer. */
  lag: number;
  /** Runs `tx` in a new slot; answers its signature (failed transactions are kept, as on chain). */
  send(tx: Transaction): string;
  /** Leaves `n` slots without a block. */
  skip(n: number): void;
  /** The newest slot with a block. */
  head(): number;
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The chain behind one or more facades: litesvm, its blocks and its address index. */
export class SolanaLedger {
  readonly svm: import('litesvm').LiteSVM;
  readonly blocks: Block[] = [];
  readonly transactions = new Map<string, Recorded>();
  readonly byAddress = new Map<string, string[]>();
  slot = 0;
  /** True: each transaction gets a block of its own at once; false: they wait for `seal()`. */
  autoSeal = true;
  private pending: string[] = [];

  constructor(svm: import('litesvm').LiteSVM) {
    this.svm = svm;
    this.blocks.push({
      slot: 0,
      hash: hash32(),
      parentHash: hash32(),
      parentSlot: 0,
      time: GENESIS_TIME,
      signatures: [],
    });
  }

  /** Runs `tx`, recording what it did, in a new slot with a block. */
  send(tx: Transaction): string {
    const message = getCompiledTransactionMessageDecoder().decode(tx.messageBytes);
    const keys = message.staticAccounts.map(String);
    const before = keys.map((key) => this.account(key));
    const result = this.svm.sendTransaction(tx);
    // A failed transaction stays on chain with its error (the fee is still paid): in the RPC's
    // shape `{"InstructionError": [index, reason]}`, the reason litesvm's text of it.
    const err = 'err' in result ? { InstructionError: [0, result.toString().slice(0, 120)] } : null;
    const after = keys.map((key) => this.account(key));
    const signature = getBase58Decoder().decode(Object.values(tx.signatures)[0]!);
    this.transactions.set(signature, {
      signature,
      // In no block until sealed: above every slot a node answers.
      slot: Number.MAX_SAFE_INTEGER,
      err,
      keys,
      // @solana/kit's names for the header's counts, under the RPC's.
      header: {
        numRequiredSignatures: message.header.numSignerAccounts,
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
      },
      instructions: ('instructions' in message ? message.instructions : []).map((ix) => ({
        programIdIndex: ix.programAddressIndex,
        accounts: [...(ix.accountIndices ?? [])],
        data: '',
      })),
      preBalances: before.map((a) => a.lamports),
      postBalances: after.map((a) => a.lamports),
      preTokenBalances: tokenBalances(before),
      postTokenBalances: tokenBalances(after),
    });
    for (const key of new Set(keys)) {
      const list = this.byAddress.get(key) ?? [];
      list.unshift(signature);
      this.byAddress.set(key, list);
    }
    this.svm.expireBlockhash();
    this.pending.push(signature);
    if (this.autoSeal) this.seal();
    return signature;
  }

  /** Puts the transactions sent since the last block into a new block, in the next slot. */
  seal(): void {
    this.slot += 1;
    const parent = this.blocks.at(-1)!;
    this.blocks.push({
      slot: this.slot,
      hash: hash32(),
      parentHash: parent.hash,
      parentSlot: parent.slot,
      time: GENESIS_TIME + this.slot,
      signatures: this.pending,
    });
    for (const signature of this.pending) this.transactions.get(signature)!.slot = this.slot;
    this.pending = [];
  }

  skip(n: number): void {
    this.slot += n;
  }

  private account(key: string): { lamports: number; owner: string; data: Uint8Array } {
    const found = this.svm.getAccount(address(key));
    if (!found.exists) return { lamports: 0, owner: '11111111111111111111111111111111', data: new Uint8Array() };
    return { lamports: Number(found.lamports), owner: found.programAddress, data: found.data };
  }
}

function tokenBalances(accounts: { owner: string; data: Uint8Array }[]): TokenBalance[] {
  const out: TokenBalance[] = [];
  accounts.forEach((account, accountIndex) => {
    if (account.owner !== TOKEN_PROGRAM_ADDRESS && account.owner !== TOKEN_2022_PROGRAM) return;
    // A token account is 165 bytes; Token-2022 marks one with extensions by the byte 2 at 165.
    if (account.data.length < 165 || (account.data.length > 165 && account.data[165] !== 2)) return;
    const data = Buffer.from(account.data);
    const amount = data.readBigUInt64LE(64).toString();
    out.push({
      accountIndex,
      mint: getBase58Decoder().decode(data.subarray(0, 32)),
      owner: getBase58Decoder().decode(data.subarray(32, 64)),
      programId: account.owner,
      uiTokenAmount: { amount, decimals: 6, uiAmount: null, uiAmountString: amount },
    });
  });
  return out;
}

const hash32 = () => getBase58Decoder().decode(randomBytes(32));

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** A JSON-RPC node over `ledger`, on 127.0.0.1. */
export async function startSolanaFacade(ledger: SolanaLedger): Promise<SolanaFacade> {
  const calls = new Map<string, number>();
  const facade = { calls, lag: 0 } as SolanaFacade;
  const visible = () => ledger.blocks.slice(0, Math.max(1, ledger.blocks.length - facade.lag));
  const top = () => visible().at(-1)!.slot;

  function answer(method: string, params: unknown[]): unknown {
    const opts = (params.find((p) => p && typeof p === 'object' && !Array.isArray(p)) ?? {}) as Record<string, unknown>;
    switch (method) {
      case 'getSlot':
        return top();
      case 'getBlock': {
        const slot = params[0] as number;
        if (slot > top()) throw new RpcError(-32004, `Block not available for slot ${slot}`);
        const block = ledger.blocks.find((b) => b.slot === slot);
        if (!block)
          throw new RpcError(-32007, `Slot ${slot} was skipped, or missing due to ledger jump to recent snapshot`);
        return {
          blockhash: block.hash,
          previousBlockhash: block.parentHash,
          parentSlot: block.parentSlot,
          blockTime: block.time,
          blockHeight: ledger.blocks.indexOf(block),
        };
      }
      case 'getBlocks': {
        const [from, to] = params as [number, number];
        return visible()
          .filter((b) => b.slot >= from && b.slot <= Math.min(to, top()))
          .map((b) => b.slot);
      }
      case 'getBlocksWithLimit': {
        const [from, limit] = params as [number, number];
        return visible()
          .filter((b) => b.slot >= from)
          .slice(0, limit)
          .map((b) => b.slot);
      }
      case 'getSignaturesForAddress': {
        const limit = Math.min(Number(opts.limit ?? 1000), 1000);
        let list = (ledger.byAddress.get(params[0] as string) ?? []).filter(
          (s) => ledger.transactions.get(s)!.slot <= top(),
        );
        if (typeof opts.before === 'string') list = list.slice(list.indexOf(opts.before) + 1);
        if (typeof opts.until === 'string' && list.includes(opts.until)) list = list.slice(0, list.indexOf(opts.until));
        return list.slice(0, limit).map((signature) => {
          const tx = ledger.transactions.get(signature)!;
          const block = ledger.blocks.find((b) => b.slot === tx.slot)!;
          return {
            signature,
            slot: tx.slot,
            err: tx.err,
            memo: null,
            blockTime: block.time,
            confirmationStatus: 'finalized',
          };
        });
      }
      case 'getTransaction': {
        const tx = ledger.transactions.get(params[0] as string);
        if (!tx || tx.slot > top()) return null;
        return {
          slot: tx.slot,
          blockTime: ledger.blocks.find((b) => b.slot === tx.slot)!.time,
          version: 'legacy',
          meta: {
            err: tx.err,
            status: tx.err ? { Err: tx.err } : { Ok: null },
            fee: 5000,
            preBalances: tx.preBalances,
            postBalances: tx.postBalances,
            preTokenBalances: tx.preTokenBalances,
            postTokenBalances: tx.postTokenBalances,
            innerInstructions: [],
            logMessages: [],
            rewards: [],
            loadedAddresses: { writable: [], readonly: [] },
          },
          transaction: {
            signatures: [tx.signature],
            message: {
              accountKeys: tx.keys,
              header: tx.header,
              instructions: tx.instructions,
              recentBlockhash: hash32(),
            },
          },
        };
      }
      case 'getAccountInfo': {
        const found = ledger.svm.getAccount(address(params[0] as string));
        return {
          context: { slot: top() },
          value: found.exists
            ? {
                owner: found.programAddress,
                lamports: Number(found.lamports),
                data: [Buffer.from(found.data).toString('base64'), 'base64'],
                executable: found.executable,
                rentEpoch: 0,
                space: found.data.length,
              }
            : null,
        };
      }
      case 'sendTransaction': {
        if (opts.encoding !== 'base64') throw new RpcError(-32602, 'only base64 transactions are taken here');
        return ledger.send(getTransactionDecoder().decode(getBase64Encoder().encode(params[0] as string)));
      }
      case 'getLatestBlockhash':
        return {
          context: { slot: top() },
          value: { blockhash: ledger.svm.latestBlockhash(), lastValidBlockHeight: top() + 150 },
        };
    }
    throw new RpcError(-32601, 'Method not found');
  }

  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      let id: unknown = null;
      let reply: unknown;
      try {
        const request = JSON.parse(body) as { id: unknown; method: string; params?: unknown[] };
        id = request.id;
        calls.set(request.method, (calls.get(request.method) ?? 0) + 1);
        reply = { jsonrpc: '2.0', id, result: answer(request.method, request.params ?? []) };
      } catch (error) {
        const code = error instanceof RpcError ? error.code : -32603;
        reply = { jsonrpc: '2.0', id, error: { code, message: (error as Error).message } };
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
    });
  });
  const listen = () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  let port = 0;
  await listen();
  port = (server.address() as AddressInfo).port;
  facade.url = `http://127.0.0.1:${port}/`;
  facade.send = (tx) => ledger.send(tx);
  facade.skip = (n) => ledger.skip(n);
  facade.head = top;
  facade.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  facade.start = listen;
  facade.close = facade.stop;
  return facade;
}

// --- Building the chain's state and payments --------------------------------------------------

/** A fresh ledger with the default programs (System, SPL Token, Token-2022, ATA...). */
export async function newSolanaLedger(): Promise<SolanaLedger> {
  const { LiteSVM } = await import('litesvm');
  return new SolanaLedger(new LiteSVM().withDefaultPrograms());
}

/** A signer with `sol` lamports from litesvm's airdrop (not recorded as a transaction). */
export async function fundedSigner(ledger: SolanaLedger, sol = 10_000_000_000n): Promise<KeyPairSigner> {
  const signer = await generateKeyPairSigner();
  ledger.svm.airdrop(signer.address, lamports(sol));
  return signer;
}

/**
 * Writes a mint account directly (litesvm's setAccount): `decimals`, the mint authority, and for
 * Token-2022 optionally a TransferFeeConfig extension (type 1) of `feeBasisPoints` with no maximum.
 * Layouts: https://github.com/solana-program/token (state.rs) and token-2022's extension TLV.
 */
export function writeMint(
  ledger: SolanaLedger,
  mint: Address,
  authority: Address,
  options: { decimals?: number; program?: Address; feeBasisPoints?: number } = {},
): void {
  const program = options.program ?? TOKEN_PROGRAM_ADDRESS;
  const base = Buffer.alloc(82);
  base.writeUInt32LE(1, 0);
  Buffer.from(getAddressEncoder().encode(authority)).copy(base, 4);
  base.writeBigUInt64LE(0n, 36);
  base[44] = options.decimals ?? 6;
  base[45] = 1;
  let data: Buffer = base;
  if (options.feeBasisPoints !== undefined) {
    const fee = Buffer.alloc(108);
    // authorities (2 x 32, zero = none), withheld (8), older and newer fee: epoch u64, maximum u64, basis points u16.
    for (const at of [72, 90]) {
      fee.writeBigUInt64LE(0n, at);
      fee.writeBigUInt64LE(2n ** 64n - 1n, at + 8);
      fee.writeUInt16LE(options.feeBasisPoints, at + 16);
    }
    const tlv = Buffer.alloc(4);
    tlv.writeUInt16LE(1, 0);
    tlv.writeUInt16LE(108, 2);
    data = Buffer.concat([base, Buffer.alloc(165 - 82), Buffer.from([1]), tlv, fee]);
  }
  ledger.svm.setAccount({
    address: mint,
    data: new Uint8Array(data),
    executable: false,
    lamports: lamports(ledger.svm.minimumBalanceForRentExemption(BigInt(data.length))),
    programAddress: program,
    space: BigInt(data.length),
  });
}

export async function ata(owner: Address, mint: Address, program: Address = TOKEN_PROGRAM_ADDRESS): Promise<Address> {
  const [found] = await findAssociatedTokenPda({ owner, mint, tokenProgram: program });
  return found;
}

/** A signed transaction of `instructions` paid by `payer`, with the ledger's blockhash. */
export async function transaction(
  ledger: SolanaLedger,
  payer: KeyPairSigner,
  instructions: Instruction[],
): Promise<Transaction> {
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (m) => setTransactionMessageFeePayerSigner(payer, m),
    (m) => ledger.svm.setTransactionMessageLifetimeUsingLatestBlockhash(m),
    (m) => appendTransactionMessageInstructions(instructions, m),
  );
  return signTransactionMessageWithSigners(message);
}

/** Creates `owner`'s associated token account for `mint` (the real ATA program), paid by `payer`. */
export async function createTokenAccount(
  ledger: SolanaLedger,
  payer: KeyPairSigner,
  owner: Address,
  mint: Address,
  program: Address = TOKEN_PROGRAM_ADDRESS,
): Promise<Address> {
  const account = await ata(owner, mint, program);
  const ix = getCreateAssociatedTokenIdempotentInstruction({ payer, ata: account, owner, mint, tokenProgram: program });
  ledger.send(await transaction(ledger, payer, [ix]));
  return account;
}

/** Mints `amount` of `mint` (whose authority is `authority`) to `owner`'s associated account, creating it. */
export async function mintTo(
  ledger: SolanaLedger,
  authority: KeyPairSigner,
  owner: Address,
  mint: Address,
  amount: bigint,
  program: Address = TOKEN_PROGRAM_ADDRESS,
): Promise<Address> {
  const account = await ata(owner, mint, program);
  const create = getCreateAssociatedTokenIdempotentInstruction({
    payer: authority,
    ata: account,
    owner,
    mint,
    tokenProgram: program,
  });
  const mintIx = getMintToInstruction(
    { mint, token: account, mintAuthority: authority, amount },
    { programAddress: program },
  );
  ledger.send(await transaction(ledger, authority, [create, mintIx]));
  return account;
}

/** The reference, a read-only non-signer key appended to an instruction, as Solana Pay wallets add it. */
export function withReference(ix: Instruction, reference: string | undefined): Instruction {
  if (!reference) return ix;
  return { ...ix, accounts: [...(ix.accounts ?? []), { address: address(reference), role: AccountRole.READONLY }] };
}

/** A SOL transfer instruction carrying `reference`. */
export function solTransfer(from: KeyPairSigner, to: Address, amount: bigint, reference?: string): Instruction {
  return withReference(getTransferSolInstruction({ source: from, destination: to, amount }), reference);
}

/** A TransferChecked of `mint` from `from`'s associated account to `toOwner`'s, carrying `reference`. */
export async function tokenTransfer(
  from: KeyPairSigner,
  toOwner: Address,
  mint: Address,
  amount: bigint,
  options: { reference?: string; decimals?: number; program?: Address } = {},
): Promise<Instruction> {
  const program = options.program ?? TOKEN_PROGRAM_ADDRESS;
  const ix = getTransferCheckedInstruction(
    {
      source: await ata(from.address, mint, program),
      mint,
      destination: await ata(toOwner, mint, program),
      authority: from,
      amount,
      decimals: options.decimals ?? 6,
    },
    { programAddress: program },
  );
  return withReference(ix, options.reference);
}

// --- A live network for withLiveNetwork (tests/support/live.ts) -------------------------------

/** The catalog's USDC mint, written at its mainnet address so that SOLANA_TOKENS keeps its default for it. */
export const USDC_MINT = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v');

export interface SolanaChain {
  ledger: SolanaLedger;
  /** Two nodes over the one chain, in SOLANA_RPC_URL's order. */
  nodes: [SolanaFacade, SolanaFacade];
  /** The gateway's receiving wallet (SOLANA_ADDRESS): its key is the test's, never the gateway's. */
  wallet: Address;
  /** Holds SOL and every mint's tokens, and is every mint's authority. */
  payer: KeyPairSigner;
  /** USDT here: a Token-2022 mint withholding 1% on every transfer (SOLANA_TOKENS names it). */
  feeMint: Address;
  /** A classic SPL mint of 6 decimals the gateway does not know. */
  lookAlikeMint: Address;
  close(): Promise<void>;
}

/** Sets up the chain: mints, the payer's tokens, the wallet's token accounts (the real ATA program), two nodes. */
export async function startSolanaChain(): Promise<SolanaChain> {
  const ledger = await newSolanaLedger();
  const payer = await fundedSigner(ledger, 1_000_000_000_000n);
  const wallet = (await generateKeyPairSigner()).address;
  // Rent-exempt already, as a wallet in use is: a payment of a few lamports to it can succeed.
  ledger.svm.airdrop(wallet, lamports(1_000_000_000n));
  const feeMint = (await generateKeyPairSigner()).address;
  const lookAlikeMint = (await generateKeyPairSigner()).address;
  writeMint(ledger, USDC_MINT, payer.address);
  writeMint(ledger, feeMint, payer.address, { program: TOKEN_2022_PROGRAM, feeBasisPoints: 100 });
  writeMint(ledger, lookAlikeMint, payer.address);
  for (const [mint, program] of [
    [USDC_MINT, TOKEN_PROGRAM_ADDRESS],
    [feeMint, TOKEN_2022_PROGRAM],
    [lookAlikeMint, TOKEN_PROGRAM_ADDRESS],
  ] as const) {
    await mintTo(ledger, payer, payer.address, mint, 10n ** 15n, program);
    await createTokenAccount(ledger, payer, wallet, mint, program);
  }
  const nodes = [await startSolanaFacade(ledger), await startSolanaFacade(ledger)] as [SolanaFacade, SolanaFacade];
  return {
    ledger,
    nodes,
    wallet,
    payer,
    feeMint,
    lookAlikeMint,
    close: async () => {
      for (const node of nodes) await node.close().catch(() => undefined);
    },
  };
}

/** withLiveNetwork's spec of the Solana chain (tests/support/live.ts). */
export function solanaNetwork(settings: {
  untaggedMerchant(db: import('@/lib/db/client').Database): Promise<string>;
}): import('./live').LiveNetworkSpec<SolanaChain> {
  return {
    network: 'solana',
    start: startSolanaChain,
    env: (chain) => ({
      SOLANA_RPC_URL: chain.nodes.map((n) => n.url).join(','),
      SOLANA_ADDRESS: chain.wallet,
      SOLANA_UNTAGGED_MERCHANT: '00000000-0000-4000-8000-000000000000',
      SOLANA_TOKENS: `USDC:${USDC_MINT},USDT:${chain.feeMint}`,
      CHAIN_RPC_TIMEOUT_MS: '3000',
    }),
    afterDatabase: async (db) => ({ SOLANA_UNTAGGED_MERCHANT: await settings.untaggedMerchant(db) }),
  };
}
