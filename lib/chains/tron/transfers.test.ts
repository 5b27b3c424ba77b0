import { describe, expect, it } from 'vitest';
import { tronAddressFromHex, tronAddressHash } from './address';
import { block, transactionInfo } from './answers';
import { tokenTransfers, trxTransfers } from './transfers';

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const TRANSFER = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const from = '11'.repeat(20);
const to = '22'.repeat(20);
const ref = { height: 7, hash: 'ab'.repeat(32), parentHash: 'cd'.repeat(32), time: new Date(0) };
const contracts = new Map([[tronAddressHash(USDT), 'USDT']]);

/** A TransactionInfo as gettransactioninfobyblocknum answers it, with one Transfer log of `value`. */
const info = (receipt: Record<string, unknown>, extra: Record<string, unknown> = {}, emitter = tronAddressHash(USDT)) =>
  transactionInfo.parse({
    id: 'ef'.repeat(32),
    blockNumber: 7,
    receipt,
    log: [
      {
        address: emitter,
        topics: [TRANSFER, from.padStart(64, '0'), to.padStart(64, '0')],
        data: (2n ** 200n).toString(16).padStart(64, '0'),
      },
    ],
    ...extra,
  });

describe('Tron token transfers from execution results', () => {
  it('reads a successful Transfer log of a configured contract: addresses in base58, the uint256 exactly', () => {
    expect(tokenTransfers([info({ result: 'SUCCESS' })], ref, contracts)).toEqual([
      {
        txHash: 'ef'.repeat(32),
        outputIndex: 0,
        from: tronAddressFromHex(`41${from}`),
        to: tronAddressFromHex(`41${to}`),
        tag: null,
        currency: 'USDT',
        amount: 2n ** 200n,
        blockHeight: 7,
        seenAt: ref.time,
        senderFee: 0n,
      },
    ]);
  });

  it("carries what the call burned of its sender's TRX: the info's fee, the total of its parts", () => {
    const burned = info({ result: 'SUCCESS', energy_fee: 4_122_510, net_fee: 345_000 }, { fee: 4_467_510 });
    expect(tokenTransfers([burned], ref, contracts)).toMatchObject([{ senderFee: 4_467_510n }]);
  });

  it('credits nothing for a failed call even if a node reported its log, nor for another contract', () => {
    expect(tokenTransfers([info({ result: 'REVERT' }, { result: 'FAILED' })], ref, contracts)).toEqual([]);
    expect(tokenTransfers([info({ result: 'OUT_OF_ENERGY' })], ref, contracts)).toEqual([]);
    expect(tokenTransfers([info({})], ref, contracts)).toEqual([]);
    expect(tokenTransfers([info({ result: 'SUCCESS' }, {}, '33'.repeat(20))], ref, contracts)).toEqual([]);
  });
});

describe('Tron TRX transfers from a block', () => {
  const transfer = (ret: Record<string, unknown>[], amount = '5000000') =>
    block.parse({
      blockID: ref.hash,
      block_header: { raw_data: { number: 7, parentHash: ref.parentHash, timestamp: 1000 } },
      transactions: [
        {
          txID: 'ef'.repeat(32),
          ret,
          raw_data: {
            contract: [
              {
                type: 'TransferContract',
                parameter: { value: { amount, owner_address: `41${from}`, to_address: `41${to}` } },
              },
            ],
          },
        },
      ],
    });

  it('counts a TransferContract whose result is SUCCESS, in sun', () => {
    expect(trxTransfers(transfer([{ contractRet: 'SUCCESS' }]), ref, 'TRX', 'node')).toMatchObject([
      { amount: 5_000_000n, currency: 'TRX', to: tronAddressFromHex(`41${to}`) },
    ]);
  });

  it('counts nothing without a SUCCESS result, nor a zero amount', () => {
    expect(trxTransfers(transfer([{ contractRet: 'REVERT' }]), ref, 'TRX', 'node')).toEqual([]);
    expect(trxTransfers(transfer([{}]), ref, 'TRX', 'node')).toEqual([]);
    expect(trxTransfers(transfer([{ contractRet: 'SUCCESS' }], '0'), ref, 'TRX', 'node')).toEqual([]);
  });
});
