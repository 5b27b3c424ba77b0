/**
 * One transaction looked up by id, per family (ChainAdapter.transaction, docs/decisions/092): the
 * pure readers of each node's answers, against answers shaped as the public RPC documentation
 * prints them.
 */
import { formatTransaction, formatTransactionReceipt } from 'viem';
import { describe, expect, it } from 'vitest';
import { findNetwork } from '../catalog';
import { evmFoundTransaction } from './evm/lookup';
import { block as tronBlock, transactionInfo } from './tron/answers';
import { tronAddressFromHex, tronAddressHash } from './tron/address';
import { tronFoundTransaction } from './tron/lookup';
import { utxoFoundTransaction } from './utxo';
import { xrplFoundTransaction } from './xrpl';

describe('Bitcoin family: getrawtransaction txid true [blockhash]', () => {
  const litecoin = findNetwork('litecoin')!;
  const TXID = 'b5'.repeat(32);
  // https://developer.bitcoin.org/reference/rpc/getrawtransaction.html (amounts reach the adapter as text: ./utxo/rpc.ts)
  const answer = (where: Record<string, unknown>) => ({
    txid: TXID,
    hash: TXID,
    version: 2,
    size: 222,
    vsize: 141,
    weight: 561,
    locktime: 0,
    vin: [{ txid: 'a1'.repeat(32), vout: 1, scriptSig: { asm: '', hex: '' }, sequence: 4294967293 }],
    vout: [
      {
        value: '0.01500000',
        n: 0,
        scriptPubKey: { asm: '0 ab', hex: '0014ab', type: 'witness_v0_keyhash', address: 'ltc1qpayer' },
      },
      {
        value: '0.48499000',
        n: 1,
        scriptPubKey: { asm: '0 cd', hex: '0014cd', type: 'witness_v0_keyhash', address: 'ltc1qchange' },
      },
      { value: '0.00000000', n: 2, scriptPubKey: { asm: 'OP_RETURN 00', hex: '6a0100', type: 'nulldata' } },
    ],
    hex: '02000000',
    ...where,
  });

  it('reads a mempool transaction: no confirmations, its outputs, the fee of its mempool entry', () => {
    const found = utxoFoundTransaction(litecoin, answer({}), 500, '0.00001000');
    expect(found).toMatchObject({ confirmations: 0, blockHash: null, fee: 1000n });
    expect(found!.transfers.map((t) => [t.to, t.amount, t.outputIndex, t.blockHeight])).toEqual([
      ['ltc1qpayer', 1_500_000n, 0, null],
      ['ltc1qchange', 48_499_000n, 1, null],
    ]);
  });

  it('reads a mined one with its block and confirmations (height from the tip), without a fee', () => {
    const found = utxoFoundTransaction(
      litecoin,
      answer({ blockhash: 'c7'.repeat(32), confirmations: 3, time: 1_700_000_000, blocktime: 1_700_000_000 }),
      500,
      null,
    );
    expect(found).toMatchObject({ confirmations: 3, blockHash: 'c7'.repeat(32), fee: null });
    expect(found!.transfers[0]).toMatchObject({ blockHeight: 498, seenAt: new Date(1_700_000_000_000) });
  });

  it('finds nothing in a block off the best chain', () => {
    expect(
      utxoFoundTransaction(
        litecoin,
        answer({ blockhash: 'c7'.repeat(32), in_active_chain: false, confirmations: 0 }),
        500,
        null,
      ),
    ).toBeNull();
  });
});

describe('EVM: eth_getTransactionReceipt and eth_getTransactionByHash', () => {
  const native = 'ETH';
  const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
  const contracts = new Map([[USDT.toLowerCase(), 'USDT']]);
  const HASH = `0x${'4e'.repeat(32)}`;
  const BLOCK = `0x${'9b'.repeat(32)}`;
  const SENDER = '0x1111111111111111111111111111111111111111';
  const PAYER = '0x2222222222222222222222222222222222222222';
  const word = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
  const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
  // https://ethereum.org/developers/docs/apis/json-rpc/#eth_gettransactionbyhash
  const transaction = (to: string, value: string) =>
    formatTransaction({
      blockHash: BLOCK,
      blockNumber: '0x10',
      from: SENDER,
      gas: '0x186a0',
      gasPrice: '0x3b9aca00',
      maxFeePerGas: '0x77359400',
      maxPriorityFeePerGas: '0x3b9aca00',
      hash: HASH,
      input: '0x',
      nonce: '0x2',
      to,
      transactionIndex: '0x0',
      value,
      type: '0x2',
      chainId: '0x1',
      accessList: [],
      v: '0x0',
      r: '0x1',
      s: '0x1',
    } as never);
  // https://ethereum.org/developers/docs/apis/json-rpc/#eth_gettransactionreceipt
  const receipt = (status: '0x1' | '0x0', logs: { address: string; to: string; value: bigint }[] = []) =>
    formatTransactionReceipt({
      blockHash: BLOCK,
      blockNumber: '0x10',
      contractAddress: null,
      cumulativeGasUsed: '0xcd14',
      effectiveGasPrice: '0x3b9aca00',
      from: SENDER,
      gasUsed: '0xcd14',
      logs: logs.map((log, i) => ({
        address: log.address,
        topics: [TRANSFER, word(SENDER), word(log.to)],
        data: `0x${log.value.toString(16).padStart(64, '0')}`,
        blockNumber: '0x10',
        blockHash: BLOCK,
        transactionHash: HASH,
        transactionIndex: '0x0',
        logIndex: `0x${i.toString(16)}`,
        removed: false,
      })),
      logsBloom: `0x${'00'.repeat(256)}`,
      status,
      to: USDT,
      transactionHash: HASH,
      transactionIndex: '0x0',
      type: '0x2',
    } as never);
  const block = { height: 16, hash: BLOCK, parentHash: `0x${'8a'.repeat(32)}`, time: new Date(1_700_000_000_000) };

  it('reads a native payment that succeeded, its confirmations to the head and its fee in wei', () => {
    const found = evmFoundTransaction(
      { transaction: transaction(PAYER, '0x2386f26fc10000'), receipt: receipt('0x1'), block, headHeight: 27 },
      native,
      contracts,
      'test node',
    );
    expect(found).toMatchObject({ confirmations: 12, blockHash: BLOCK, fee: 0xcd14n * 1_000_000_000n });
    expect(found!.transfers).toEqual([expect.objectContaining({ to: PAYER, currency: 'ETH', amount: 10n ** 16n })]);
  });

  it("reads the configured token's Transfer logs by position, and no other contract's", () => {
    const found = evmFoundTransaction(
      {
        transaction: transaction(USDT, '0x0'),
        receipt: receipt('0x1', [
          { address: '0x3333333333333333333333333333333333333333', to: PAYER, value: 5n },
          { address: USDT, to: PAYER, value: 2_500_000n },
        ]),
        block,
        headHeight: 16,
      },
      native,
      contracts,
      'test node',
    );
    expect(found!.transfers).toEqual([
      expect.objectContaining({ to: PAYER, currency: 'USDT', amount: 2_500_000n, outputIndex: 1 }),
    ]);
    expect(found!.confirmations).toBe(1);
  });

  it('finds that a reverted transaction moved nothing, and nothing at all for a receipt of another block', () => {
    const reverted = {
      transaction: transaction(PAYER, '0x2386f26fc10000'),
      receipt: receipt('0x0'),
      block,
      headHeight: 20,
    };
    expect(evmFoundTransaction(reverted, native, contracts, 'test node')!.transfers).toEqual([]);
    expect(
      evmFoundTransaction({ ...reverted, block: { ...block, hash: `0x${'77'.repeat(32)}` } }, native, contracts, 'n'),
    ).toBeNull();
  });
});

describe('Tron: /wallet/gettransactioninfobyid and the block', () => {
  const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const contracts = new Map([[tronAddressHash(USDT), 'USDT']]);
  const ID = '7c'.repeat(32);
  const owner = `41${'11'.repeat(20)}`;
  const payer = `41${'22'.repeat(20)}`;
  // https://developers.tron.network/reference/getblock (amounts quoted by ./tron/node.ts)
  const block = (contract: Record<string, unknown>, ret = 'SUCCESS') =>
    tronBlock.parse({
      blockID: '00'.repeat(4) + '5d'.repeat(28),
      block_header: { raw_data: { number: 7, parentHash: '4c'.repeat(32), timestamp: 1_700_000_000_000 } },
      transactions: [
        { txID: 'aa'.repeat(32), ret: [{ contractRet: 'SUCCESS' }], raw_data: { contract: [] } },
        { txID: ID, ret: [{ contractRet: ret }], raw_data: { contract: [contract] } },
      ],
    });
  // https://developers.tron.network/reference/gettransactioninfobyid
  const info = (extra: Record<string, unknown>) =>
    transactionInfo.parse({ id: ID, fee: 1_100_000, blockNumber: 7, blockTimeStamp: 1_700_000_000_000, ...extra });

  it('reads a TRX payment that succeeded, its fee in sun and its confirmations', () => {
    const found = tronFoundTransaction(
      info({ receipt: { net_fee: 1_100_000 } }),
      block({
        type: 'TransferContract',
        parameter: { value: { amount: '3000000', owner_address: owner, to_address: payer } },
      }),
      25,
      'TRX',
      contracts,
      'test node',
    );
    expect(found).toMatchObject({ confirmations: 19, fee: 1_100_000n });
    expect(found!.transfers).toEqual([
      expect.objectContaining({ to: tronAddressFromHex(payer), currency: 'TRX', amount: 3_000_000n }),
    ]);
  });

  it("reads a TRC-20 Transfer log of a call whose receipt is SUCCESS; a reverted call's is nothing", () => {
    const call = block({ type: 'TriggerSmartContract', parameter: { value: {} } });
    const log = {
      address: tronAddressHash(USDT),
      topics: [
        'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
        owner.slice(2).padStart(64, '0'),
        payer.slice(2).padStart(64, '0'),
      ],
      data: (4_000_000).toString(16).padStart(64, '0'),
    };
    const ok = tronFoundTransaction(
      info({ receipt: { result: 'SUCCESS' }, log: [log] }),
      call,
      7,
      'TRX',
      contracts,
      't',
    );
    expect(ok!.transfers).toEqual([
      expect.objectContaining({ to: tronAddressFromHex(payer), currency: 'USDT', amount: 4_000_000n }),
    ]);
    const reverted = info({ result: 'FAILED', receipt: { result: 'REVERT' }, log: [log] });
    expect(tronFoundTransaction(reverted, call, 7, 'TRX', contracts, 't')!.transfers).toEqual([]);
  });

  it('finds nothing when the block answered does not hold the transaction', () => {
    const other = block({ type: 'TransferContract', parameter: { value: {} } });
    expect(tronFoundTransaction(info({ id: 'bb'.repeat(32) }), other, 9, 'TRX', contracts, 't')).toBeNull();
  });
});

describe('XRP Ledger: the tx method (API v1)', () => {
  const ripple = findNetwork('ripple')!;
  const PAYER = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
  // https://xrpl.org/docs/references/http-websocket-apis/public-api-methods/transaction-methods/tx
  const tx = (extra: Record<string, unknown>, meta: Record<string, unknown> = {}) => ({
    Account: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
    Amount: '2500000',
    Destination: PAYER,
    DestinationTag: 4242,
    Fee: '12',
    Flags: 0,
    Sequence: 9,
    SigningPubKey: '03AB',
    TransactionType: 'Payment',
    TxnSignature: '3045',
    date: 800_000_000,
    hash: 'E08D6E9754025BA2534A78707605E0601F03ACE063687A0CA1BDDACFCD1698C7',
    inLedger: 56_865_245,
    ledger_index: 56_865_245,
    meta: { TransactionIndex: 0, TransactionResult: 'tesSUCCESS', delivered_amount: '2500000', ...meta },
    validated: true,
    ...extra,
  });

  it('reads a validated Payment by what it delivered, to its destination under its tag, and its fee', () => {
    const found = xrplFoundTransaction(ripple, tx({}));
    expect(found).toMatchObject({ confirmations: 1, fee: 12n });
    expect(found!.transfers).toEqual([
      expect.objectContaining({ to: PAYER, tag: '4242', currency: 'XRP', amount: 2_500_000n, blockHeight: 56_865_245 }),
    ]);
  });

  it('counts a partial payment by its delivered_amount, never its Amount', () => {
    const partial = xrplFoundTransaction(ripple, tx({ Amount: '9000000', Flags: 0x20000 }, { delivered_amount: '1' }));
    expect(partial!.transfers[0]!.amount).toBe(1n);
  });

  it('finds nothing unvalidated, and no transfer in a failed Payment', () => {
    expect(xrplFoundTransaction(ripple, tx({ validated: false }))).toBeNull();
    expect(xrplFoundTransaction(ripple, tx({}, { TransactionResult: 'tecPATH_DRY' }))!.transfers).toEqual([]);
  });
});
