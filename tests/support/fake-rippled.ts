/**
 * A FAKE rippled for tests: rippled cannot run on this machine. It answers exactly what the XRP
 * Ledger adapter (lib/chains/xrpl) asks, over HTTP JSON-RPC on 127.0.0.1, in the shapes of the
 * public documentation (API version 1), and nothing else:
 *
 * - Request/answer envelope, errors inside `result` (`status: "error"`, `error: "lgrNotFound"`):
 *   https://xrpl.org/docs/tutorials/http-websocket-apis/build-apps/get-started (JSON-RPC) and
 *   https://xrpl.org/docs/references/http-websocket-apis/api-conventions/error-formatting
 * - The `ledger` method (`ledger_index` a number or "validated", `transactions`, `expand`, the
 *   ledger header fields, `validated`): https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/ledger-methods/ledger
 * - Expanded transactions of API v1 with `hash` and `metaData` beside the fields:
 *   https://xrpl.org/docs/references/http-websocket-apis/api-conventions/request-formatting#api-versioning
 * - Payment fields (`Amount` in drops as a string, `DestinationTag`, tfPartialPayment 0x00020000):
 *   https://xrpl.org/docs/references/protocol/transactions/types/payment
 * - Metadata (`TransactionResult`, `delivered_amount`): https://xrpl.org/docs/references/protocol/transactions/metadata
 * - Token (issued currency) amounts, `{currency, issuer, value}` in `Amount` and `delivered_amount`,
 *   the currency a 3-character code or 40 hex digits, the value a decimal string:
 *   https://xrpl.org/docs/references/protocol/data-types/currency-formats
 * - The `tx` method (a transaction by `transaction` hash: its fields, `meta`, `ledger_index`, `date`,
 *   `validated`; `txnNotFound` for one in no closed ledger):
 *   https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/transaction-methods/tx
 * - Close times in seconds since 2000-01-01: https://xrpl.org/docs/references/protocol/data-types/basic-data-types#specifying-time
 * - XRP delivered otherwise than by a Payment, with the metadata's AffectedNodes
 *   (https://xrpl.org/docs/references/protocol/transactions/metadata#affectednodes): AccountDelete
 *   (`DestinationTag` on the transaction, `delivered_amount` in its metadata:
 *   https://xrpl.org/docs/references/protocol/transactions/types/accountdelete), EscrowFinish (the
 *   deleted Escrow object carries `Destination`, `DestinationTag`, `Amount`:
 *   https://xrpl.org/docs/references/protocol/transactions/types/escrowfinish,
 *   https://xrpl.org/docs/references/protocol/ledger-data/ledger-entry-types/escrow) and
 *   PaymentChannelClaim (the PayChannel object, modified or deleted, carries them and its `Balance`
 *   claimed so far: https://xrpl.org/docs/references/protocol/transactions/types/paymentchannelclaim,
 *   https://xrpl.org/docs/references/protocol/ledger-data/ledger-entry-types/paychannel); the
 *   receiving AccountRoot's `Balance` in `FinalFields` and `PreviousFields`, less the fee when it
 *   sent the transaction itself.
 *
 * - A refund's Payment sent by a signer (docs/decisions/119): the `account_info` method (`account_data`
 *   with `Sequence`, `Balance` and `OwnerCount`, `actNotFound` for an account it does not hold):
 *   https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/account-methods/account_info;
 *   the `server_state` method (`state.validated_ledger` with `reserve_base` and `reserve_inc`, integer
 *   drops; docs/decisions/127): https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/server-info-methods/server_state,
 *   the reserve an account keeps being the base and the increment for each object it owns
 *   (https://xrpl.org/docs/concepts/accounts/reserves; mainnet's 1 XRP and 0.2 XRP to start with);
 *   the `fee` method (`drops.open_ledger_fee`, `ledger_current_index`):
 *   https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/server-info-methods/fee;
 *   `submit` with a signed `tx_blob` (`engine_result`; `tefPAST_SEQ` and `terPRE_SEQ` for a sequence
 *   used or ahead, `tefMAX_LEDGER` past LastLedgerSequence, `tefALREADY` for one it holds), the
 *   binary decoded with the ledger's own codec (ripple-binary-codec), the signature verified over
 *   the signing data (ripple-keypairs), the account the key's: https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/transaction-methods/submit
 *   and https://xrpl.org/docs/concepts/transactions/cryptographic-signatures; its hash SHA-512Half of
 *   "TXN\0" and the blob (https://xrpl.org/docs/references/protocol/data-types/basic-data-types#hashes),
 *   by which `tx` then finds it. A submitted Payment of XRP delivers its `Amount` in the next
 *   ledger closed (or is dropped when that ledger is past its LastLedgerSequence); one that would
 *   leave its account below the reserve is `tecUNFUNDED_PAYMENT`, its fee burnt.
 *
 * Tests drive it: `pay()` queues a transaction, `closeLedger()` closes and validates the next
 * ledger with the queue, `lag` keeps that many closed ledgers unvalidated, `failRate` answers a
 * share of requests 503 or cuts them, `stop()`/`start()` take it off the port and back, and
 * `withoutTransactions` answers ledgers without the transactions asked for.
 */
import { createHash } from 'node:crypto';
import { decode, encodeForSigning } from 'ripple-binary-codec';
import { deriveAddress, verify } from 'ripple-keypairs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const RIPPLE_EPOCH = 946_684_800;
const PARTIAL_PAYMENT = 0x0002_0000;

/** A token amount as the ledger writes it (currency-formats "Token Amounts"). */
export interface IssuedAmount {
  currency: string;
  issuer: string;
  value: string;
}

export interface FakePayment {
  from?: string;
  to: string;
  tag?: number;
  /** Drops (or a token amount) that arrived: `meta.delivered_amount`. */
  delivered: string | IssuedAmount;
  /** The transaction's `Amount`; the delivered amount unless a partial payment says more. */
  amount?: string | IssuedAmount;
  result?: string;
}

interface Ledger {
  index: number;
  hash: string;
  parentHash: string;
  closeTime: number;
  transactions: Record<string, unknown>[];
}

/** XRP a ledger object (an escrow, a payment channel) releases to `to`, under `tag`. */
export interface FakeRelease {
  /** The account the escrow or channel is from. */
  owner?: string;
  to: string;
  tag?: number;
  /** Drops that reach `to`. */
  drops: bigint;
  /** The account that sends the transaction: `to` itself pays the fee out of what arrives. */
  submitter?: string;
  result?: string;
}

export interface FakeRippled {
  url: string;
  /** Share of requests answered 503 or cut (deterministic). */
  failRate: number;
  /** Closed ledgers not validated yet. */
  lag: number;
  failed: number;
  /** `ledger` requests answered, by whether transactions were asked. */
  requests: { headers: number; full: number };
  /** Queues a Payment for the next ledger; answers its hash. */
  pay(payment: FakePayment): string;
  /** Queues any other transaction type (it must be ignored). */
  queue(tx: Record<string, unknown>): void;
  /** Queues an AccountDelete of `from` sending its XRP (`delivered` drops) to `to`; answers its hash. */
  accountDelete(deleted: { from?: string; to: string; tag?: number; delivered: bigint; result?: string }): string;
  /** Queues an EscrowFinish releasing an escrow to `to`; answers its hash. */
  escrowFinish(release: FakeRelease): string;
  /** Queues a PaymentChannelClaim paying `to` from a channel (closing it with `close`); answers its hash. */
  channelClaim(release: FakeRelease & { close?: boolean }): string;
  /** Ledgers are answered without their transactions even when asked for them. */
  withoutTransactions: boolean;
  /** Closes the next ledger with what is queued, `seconds` after the previous one. */
  closeLedger(seconds?: number): number;
  /** The ledger close clock jumps to `date` for the next ledger. */
  setTime(date: Date): void;
  validatedIndex(): number;
  /**
   * Opens `account` with `drops`, its next Sequence and the objects it owns (account_info `OwnerCount`);
   * accounts not opened are unknown to it.
   */
  fund(account: string, drops: bigint, sequence?: number, ownerCount?: number): void;
  /** The network's reserve settings in drops (server_state): the base and the increment for each object owned. */
  reserve: { base: bigint; increment: bigint };
  /** The open ledger's fee, drops (the `fee` method). */
  openLedgerFee: bigint;
  /** Signed transactions `submit` took, as decoded. */
  submitted: Record<string, unknown>[];
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

const hex = (text: string) => createHash('sha256').update(text).digest('hex').toUpperCase();

export async function startFakeRippled(options: { seed?: number; firstIndex?: number } = {}): Promise<FakeRippled> {
  let state = options.seed ?? 1;
  const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
  let clock = Math.floor(Date.now() / 1000) - RIPPLE_EPOCH;
  const first = options.firstIndex ?? 90_000_000;
  const ledgers: Ledger[] = [
    {
      index: first,
      hash: hex(`ledger ${first}`),
      parentHash: hex(`ledger ${first - 1}`),
      closeTime: clock,
      transactions: [],
    },
  ];
  let queued: Record<string, unknown>[] = [];
  let sequence = 1;
  let port = 0;
  let server: http.Server | undefined;

  const last = () => ledgers[ledgers.length - 1]!;
  const validated = () => ledgers[Math.max(0, ledgers.length - 1 - fake.lag)]!;
  const byIndex = (index: number) => ledgers[index - first];

  function header(ledger: Ledger) {
    return {
      accepted: true,
      account_hash: hex(`accounts ${ledger.index}`),
      close_flags: 0,
      close_time: ledger.closeTime,
      close_time_human: new Date((ledger.closeTime + RIPPLE_EPOCH) * 1000).toUTCString(),
      close_time_resolution: 10,
      closed: true,
      hash: ledger.hash,
      ledger_hash: ledger.hash,
      ledger_index: String(ledger.index),
      parent_close_time: byIndex(ledger.index - 1)?.closeTime ?? ledger.closeTime,
      parent_hash: ledger.parentHash,
      seqNum: String(ledger.index),
      totalCoins: '99986000000000000',
      total_coins: '99986000000000000',
      transaction_hash: hex(`txs ${ledger.index}`),
    };
  }

  function ledgerMethod(params: Record<string, unknown>): Record<string, unknown> {
    const which = params.ledger_index;
    const ledger = which === 'validated' ? validated() : typeof which === 'number' ? byIndex(which) : undefined;
    if (!ledger) {
      return {
        error: 'lgrNotFound',
        error_code: 21,
        error_message: 'ledgerNotFound',
        request: { command: 'ledger', ...params },
        status: 'error',
      };
    }
    const full = params.transactions === true;
    fake.requests[full ? 'full' : 'headers']++;
    const body: Record<string, unknown> = header(ledger);
    if (full && !fake.withoutTransactions)
      body.transactions = params.expand === true ? ledger.transactions : ledger.transactions.map((t) => t.hash);
    return {
      ledger: body,
      ledger_hash: ledger.hash,
      ledger_index: ledger.index,
      status: 'success',
      validated: ledger.index <= validated().index,
    };
  }

  function txMethod(params: Record<string, unknown>): Record<string, unknown> {
    for (const ledger of ledgers) {
      const found = ledger.transactions.find((t) => t.hash === String(params.transaction ?? '').toUpperCase());
      if (!found) continue;
      const { metaData, ...fields } = found;
      return {
        ...fields,
        meta: metaData,
        ledger_index: ledger.index,
        inLedger: ledger.index,
        date: ledger.closeTime,
        validated: ledger.index <= validated().index,
        status: 'success',
      };
    }
    return {
      error: 'txnNotFound',
      error_code: 29,
      error_message: 'Transaction not found.',
      request: { command: 'tx', ...params },
      status: 'error',
    };
  }

  /** Accounts opened by `fund`: their next Sequence, and the objects they own. Their XRP is `balances`'. */
  const sequences = new Map<string, number>();
  const ownerCounts = new Map<string, number>();
  const reserveOf = (account: string) =>
    fake.reserve.base + fake.reserve.increment * BigInt(ownerCounts.get(account) ?? 0);
  const failure = (error: string, params: Record<string, unknown>, command: string) => ({
    error,
    error_message: error,
    request: { command, ...params },
    status: 'error',
  });

  function accountInfoMethod(params: Record<string, unknown>): Record<string, unknown> {
    const account = String(params.account ?? '');
    const next = sequences.get(account);
    if (next === undefined) return failure('actNotFound', params, 'account_info');
    return {
      account_data: {
        Account: account,
        Balance: String(balances.get(account) ?? 0n),
        Flags: 0,
        OwnerCount: ownerCounts.get(account) ?? 0,
        Sequence: next,
      },
      ledger_current_index: last().index + 1,
      validated: false,
      status: 'success',
    };
  }

  function feeMethod(): Record<string, unknown> {
    const fee = String(fake.openLedgerFee);
    return {
      current_ledger_size: String(queued.length),
      current_queue_size: '0',
      drops: { base_fee: '10', median_fee: '5000', minimum_fee: '10', open_ledger_fee: fee },
      expected_ledger_size: '1000',
      ledger_current_index: last().index + 1,
      status: 'success',
    };
  }

  /** The machine-readable server state: its validated ledger's fee and reserves in integer drops. */
  function serverStateMethod(): Record<string, unknown> {
    const ledger = validated();
    return {
      state: {
        build_version: '2.3.0',
        complete_ledgers: `${first}-${ledger.index}`,
        server_state: 'full',
        validated_ledger: {
          base_fee: 10,
          close_time: ledger.closeTime,
          hash: ledger.hash,
          reserve_base: Number(fake.reserve.base),
          reserve_inc: Number(fake.reserve.increment),
          seq: ledger.index,
        },
        validation_quorum: 28,
      },
      status: 'success',
    };
  }

  /** `submit` of a signed blob: decoded, its signature and account checked, queued for the next ledger when its Sequence is the account's. */
  function submitMethod(params: Record<string, unknown>): Record<string, unknown> {
    const blob = String(params.tx_blob ?? '');
    let tx: Record<string, unknown>;
    try {
      tx = decode(blob) as Record<string, unknown>;
    } catch {
      return failure('invalidTransaction', params, 'submit');
    }
    const answer = (engine: string) => ({
      engine_result: engine,
      engine_result_message: engine,
      tx_blob: blob,
      tx_json: tx,
      status: 'success',
    });
    const { TxnSignature: signature, ...unsigned } = tx;
    const publicKey = String(tx.SigningPubKey ?? '');
    let valid: boolean;
    try {
      valid =
        deriveAddress(publicKey) === tx.Account &&
        verify(encodeForSigning(unsigned as Parameters<typeof encodeForSigning>[0]), String(signature), publicKey);
    } catch {
      valid = false;
    }
    if (!valid) return failure('invalidTransaction', params, 'submit');
    const hash = createHash('sha512')
      .update(Buffer.concat([Buffer.from('54584E00', 'hex'), Buffer.from(blob, 'hex')]))
      .digest()
      .subarray(0, 32)
      .toString('hex')
      .toUpperCase();
    if (queued.some((t) => t.hash === hash) || ledgers.some((l) => l.transactions.some((t) => t.hash === hash)))
      return answer('tefALREADY');
    const account = String(tx.Account);
    const next = sequences.get(account);
    if (next === undefined) return answer('terNO_ACCOUNT');
    if (Number(tx.Sequence) < next) return answer('tefPAST_SEQ');
    if (Number(tx.Sequence) > next) return answer('terPRE_SEQ');
    if (tx.LastLedgerSequence !== undefined && Number(tx.LastLedgerSequence) <= last().index)
      return answer('tefMAX_LEDGER');
    sequences.set(account, next + 1);
    fake.submitted.push(tx);
    const fee = BigInt(String(tx.Fee));
    const drops = typeof tx.Amount === 'string' ? BigInt(tx.Amount) : 0n;
    const funded = (balances.get(account) ?? 0n) - fee - drops >= reserveOf(account);
    balances.set(account, (balances.get(account) ?? 0n) - fee - (funded ? drops : 0n));
    if (funded && typeof tx.Destination === 'string')
      balances.set(tx.Destination, (balances.get(tx.Destination) ?? 0n) + drops);
    const result = funded ? 'tesSUCCESS' : 'tecUNFUNDED_PAYMENT';
    queued.push({
      ...tx,
      hash,
      metaData: {
        AffectedNodes: [],
        TransactionIndex: queued.length,
        TransactionResult: result,
        delivered_amount: funded ? tx.Amount : '0',
      },
    });
    return answer('tesSUCCESS');
  }

  function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (fake.failRate > 0 && random() < fake.failRate) {
        fake.failed++;
        if (random() < 0.5) return void res.writeHead(503).end('Service Unavailable');
        return req.socket.destroy();
      }
      let request: { method?: unknown; params?: unknown };
      try {
        request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void res.writeHead(400).end('Unable to parse request');
      }
      const params = (Array.isArray(request.params) ? request.params[0] : {}) as Record<string, unknown>;
      const result =
        request.method === 'ledger'
          ? ledgerMethod(params ?? {})
          : request.method === 'tx'
            ? txMethod(params ?? {})
            : request.method === 'account_info'
              ? accountInfoMethod(params ?? {})
              : request.method === 'fee'
                ? feeMethod()
                : request.method === 'server_state'
                  ? serverStateMethod()
                  : request.method === 'submit'
                    ? submitMethod(params ?? {})
                    : {
                        error: 'unknownCmd',
                        error_code: 32,
                        error_message: 'Unknown method.',
                        request: { command: request.method },
                        status: 'error',
                      };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ result }));
    });
  }

  async function listen(): Promise<void> {
    server = http.createServer(handle);
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  }

  async function stop(): Promise<void> {
    const s = server;
    server = undefined;
    if (!s) return;
    await new Promise<void>((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    });
  }

  /** Drops each account holds, as its AccountRoot's `Balance` (100 XRP to start with). */
  const balances = new Map<string, bigint>();
  const FEE = 12n;
  /** The AccountRoot of `account` modified by `change` drops, as AffectedNodes writes it. */
  function balanceNode(account: string, change: bigint): Record<string, unknown> {
    const before = balances.get(account) ?? 100_000_000n;
    balances.set(account, before + change);
    return {
      ModifiedNode: {
        LedgerEntryType: 'AccountRoot',
        LedgerIndex: hex(`root ${account}`),
        FinalFields: { Account: account, Balance: String(before + change), Flags: 0, OwnerCount: 0 },
        PreviousFields: { Balance: String(before) },
      },
    };
  }

  /** Queues `tx` with its result and affected nodes; answers its hash. */
  function queueWithMeta(tx: Record<string, unknown>, result: string, meta: Record<string, unknown>): string {
    const full = { Fee: String(FEE), Sequence: sequence++, SigningPubKey: '03AB', ...tx };
    const hash = hex(JSON.stringify(full));
    queued.push({
      ...full,
      hash,
      metaData: { TransactionIndex: queued.length, TransactionResult: result, ...meta },
    });
    return hash;
  }

  /** What releasing `release` does to the ledger: the receiver's balance, less the fee when it sent the transaction. */
  function released(release: FakeRelease): { submitter: string; nodes: Record<string, unknown>[] } {
    const owner = release.owner ?? 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
    const submitter = release.submitter ?? owner;
    const fee = submitter === release.to ? FEE : 0n;
    return {
      submitter,
      nodes: (release.result ?? 'tesSUCCESS') === 'tesSUCCESS' ? [balanceNode(release.to, release.drops - fee)] : [],
    };
  }

  const fake: FakeRippled = {
    url: '',
    failRate: 0,
    lag: 0,
    withoutTransactions: false,
    failed: 0,
    requests: { headers: 0, full: 0 },
    openLedgerFee: 12n,
    submitted: [],
    reserve: { base: 1_000_000n, increment: 200_000n },
    fund(account, drops, next = 1, ownerCount = 0) {
      balances.set(account, drops);
      sequences.set(account, next);
      ownerCounts.set(account, ownerCount);
    },
    pay(payment) {
      const delivered = payment.delivered;
      const amount = payment.amount ?? delivered;
      const tx: Record<string, unknown> = {
        Account: payment.from ?? 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
        Amount: amount,
        Destination: payment.to,
        ...(payment.tag !== undefined ? { DestinationTag: payment.tag } : {}),
        Fee: '12',
        Flags: JSON.stringify(amount) !== JSON.stringify(delivered) ? PARTIAL_PAYMENT : 0,
        Sequence: sequence++,
        SigningPubKey: '03AB40A0490F9B7ED8DF29D246BF2D6269820A0EE7742ACDD457BEA7C7D0931EDB',
        TransactionType: 'Payment',
        TxnSignature: hex(`sig ${sequence}`),
      };
      tx.hash = hex(JSON.stringify(tx));
      const result = payment.result ?? 'tesSUCCESS';
      // Per the metadata page, delivered_amount is there for every Payment; nothing moves unless tesSUCCESS.
      tx.metaData = {
        AffectedNodes: [],
        TransactionIndex: queued.length,
        TransactionResult: result,
        delivered_amount:
          result === 'tesSUCCESS' ? delivered : typeof delivered === 'string' ? '0' : { ...delivered, value: '0' },
      };
      queued.push(tx);
      return tx.hash as string;
    },
    queue(tx) {
      const full = { Fee: '12', Sequence: sequence++, ...tx };
      queued.push({
        ...full,
        hash: hex(JSON.stringify(full)),
        metaData: { AffectedNodes: [], TransactionIndex: queued.length, TransactionResult: 'tesSUCCESS' },
      });
    },
    accountDelete({ from = 'rU6K7V3Po4snVhBBaU29sesqs2qTQJWDw1', to, tag, delivered, result = 'tesSUCCESS' }) {
      const ok = result === 'tesSUCCESS';
      return queueWithMeta(
        {
          TransactionType: 'AccountDelete',
          Account: from,
          Destination: to,
          ...(tag !== undefined ? { DestinationTag: tag } : {}),
          Fee: '2000000',
        },
        result,
        {
          AffectedNodes: ok
            ? [
                { DeletedNode: { LedgerEntryType: 'AccountRoot', FinalFields: { Account: from, Balance: '0' } } },
                balanceNode(to, delivered),
              ]
            : [],
          ...(ok ? { delivered_amount: String(delivered) } : {}),
        },
      );
    },
    escrowFinish(release) {
      const owner = release.owner ?? 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
      const { submitter, nodes } = released(release);
      const escrow = {
        Account: owner,
        Destination: release.to,
        ...(release.tag !== undefined ? { DestinationTag: release.tag } : {}),
        Amount: String(release.drops),
        Flags: 0,
        OwnerNode: '0',
      };
      return queueWithMeta(
        { TransactionType: 'EscrowFinish', Account: submitter, Owner: owner, OfferSequence: sequence },
        release.result ?? 'tesSUCCESS',
        {
          AffectedNodes: nodes.length
            ? [
                {
                  DeletedNode: {
                    LedgerEntryType: 'Escrow',
                    LedgerIndex: hex(`escrow ${sequence}`),
                    FinalFields: escrow,
                  },
                },
                ...nodes,
              ]
            : [],
        },
      );
    },
    channelClaim(release) {
      const owner = release.owner ?? 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe';
      const { submitter, nodes } = released(release);
      const channel = hex(`channel ${owner} ${release.to}`);
      const claimedBefore = 1_000_000n;
      const claimed = claimedBefore + release.drops;
      const fields = {
        Account: owner,
        Destination: release.to,
        ...(release.tag !== undefined ? { DestinationTag: release.tag } : {}),
        Amount: String(claimed + 5_000_000n),
        Balance: String(claimed),
        SettleDelay: 86400,
        PublicKey: '0330E7FC9D56BB25D6893BA3F317AE5BCF33B3291BD63DB32654A313222F7FD020',
      };
      const node = {
        LedgerEntryType: 'PayChannel',
        LedgerIndex: channel,
        FinalFields: fields,
        PreviousFields: { Balance: String(claimedBefore) },
      };
      return queueWithMeta(
        {
          TransactionType: 'PaymentChannelClaim',
          Account: submitter,
          Channel: channel,
          Balance: String(claimed),
          ...(release.close ? { Flags: 0x0002_0000 } : {}),
        },
        release.result ?? 'tesSUCCESS',
        {
          AffectedNodes: nodes.length ? [release.close ? { DeletedNode: node } : { ModifiedNode: node }, ...nodes] : [],
        },
      );
    },
    closeLedger(seconds = 4) {
      const previous = last();
      clock = Math.max(clock, previous.closeTime) + seconds;
      const index = previous.index + 1;
      // A transaction past its LastLedgerSequence is never in a ledger.
      queued = queued.filter((t) => t.LastLedgerSequence === undefined || Number(t.LastLedgerSequence) >= index);
      ledgers.push({
        index,
        hash: hex(`ledger ${index} ${clock} ${queued.length}`),
        parentHash: previous.hash,
        closeTime: clock,
        transactions: queued,
      });
      queued = [];
      return index;
    },
    setTime(date) {
      clock = Math.floor(date.getTime() / 1000) - RIPPLE_EPOCH;
    },
    validatedIndex: () => validated().index,
    stop,
    start: listen,
    close: stop,
  };
  await listen();
  fake.url = `http://127.0.0.1:${port}/`;
  return fake;
}
