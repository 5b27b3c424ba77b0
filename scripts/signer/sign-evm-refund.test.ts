/**
 * The signer against a gateway playing attacker on EVM refund plans (docs/decisions/112): an honest
 * ETH refund and a USDT refund are signed by the treasury's key, and the gateway takes back exactly
 * that transaction; a plan whose transaction pays another address than the claim shows, another
 * amount, an unknown token or a lying decimals count, a fee taken from the refund that is not the
 * gas at its cap or taken from a token refund (decision 120), a payment its node does not show paying this
 * seed, a second signing of one refund, a refund above the daily cap, and a signer without a node
 * are refused, naming why.
 */
import { encodeFunctionData, encodeEventTopics, getAddress, pad, parseAbi, parseEther, toHex } from 'viem';
import { describe, expect, it } from 'vitest';
import {
  EVM_DEPOSIT_CHAIN_PATH,
  addressOfKey,
  checkEvmRefundSubmission,
  evmRefundTransaction,
  signEvmRefundTransaction,
} from '../../lib/chains/evm/transactions';
import { SignerRefusal } from '../../lib/chains/utxo/transactions';
import { formatUnits } from '../../lib/money';
import { evmRefundPlanSchema, type EvmRefundPlan } from '../../lib/protocol';
import type { RefundLedger } from './refunds';
import { evmSignerConfigSchema } from './sign-evm';
import { type EvmPaymentAnswer, signEvmRefundPlan } from './sign-evm-refund';
import { rootOfPhrase } from './sign-plan';

const root = rootOfPhrase('legal winner thank year wave sausage worth useful legal winner thank yellow');
const TREASURY_PATH = "m/44'/60'/2'/0/0";
const TREASURY = addressOfKey(root.derive(TREASURY_PATH));
const TOKEN = getAddress('0xdac17f958d2ee523a2206206994597c13d831ec7');
const PAYER = getAddress('0x00000000000000000000000000000000000a11ce');
const ATTACKER = getAddress('0xbad0000000000000000000000000000000000bad');
const CHAIN = 1337;
const DEPOSIT_PATH = `${EVM_DEPOSIT_CHAIN_PATH}/3`;
const DEPOSIT = addressOfKey(root.derive(DEPOSIT_PATH));
const PAYMENT_TX = `0x${'ab'.repeat(32)}`;
const NOW = new Date('2026-11-28T01:00:00Z');

const config = evmSignerConfigSchema.parse({
  family: 'evm',
  network: 'ethereum',
  chainId: CHAIN,
  treasury: TREASURY,
  tokens: [TOKEN],
  maxGasPayerSpend: '0.01',
  treasuryPath: TREASURY_PATH,
  node: { url: 'http://127.0.0.1:8545' },
  refundDailyCaps: { ETH: '1', USDT: '100' },
});

/**
 * An honest plan: `amount` base units of ETH (or of USDT with `token`) to the payer, from the
 * treasury; with `fee`, the fee taken from the refund (the transaction pays the amount less it);
 * `claim` names another destination or how it was claimed.
 */
function plan(
  amount: bigint,
  token = false,
  fee?: bigint,
  claim: { destination?: string; delivery?: EvmRefundPlan['refund']['delivery'] } = {},
): EvmRefundPlan {
  const destination = claim.destination ?? PAYER;
  const decimals = token ? 6 : 18;
  const units = (v: bigint) => formatUnits(v, decimals);
  const pays = amount - (fee ?? 0n);
  return evmRefundPlanSchema.parse({
    planId: '6f1c2b9e-3d4a-4b5c-8d6e-7f8091a2b3c4',
    kind: 'refund',
    format: 'evm',
    mode: 'live',
    network: 'ethereum',
    chainId: CHAIN,
    currency: token ? 'USDT' : 'ETH',
    token: token ? { contract: TOKEN, decimals: 6 } : null,
    status: 'prepared',
    treasury: TREASURY,
    transaction: evmRefundTransaction(
      { chainId: CHAIN, treasury: TREASURY, destination, token: token ? TOKEN : null, amount: pays },
      7,
      { maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
      token ? 60_000n : 21_000n,
    ),
    refund: {
      refundId: '0b8c7f4e-1a2b-4c3d-9e8f-0a1b2c3d4e5f',
      orderId: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f',
      invoiceId: null,
      depositId: null,
      amount: units(amount),
      pays: units(pays),
      feeFromRefund: fee !== undefined,
      destination,
      addressConfirmedAt: '2026-11-28T00:00:00.000Z',
      ...(claim.delivery && { delivery: claim.delivery }),
      payment: { transfers: [{ txHash: PAYMENT_TX, address: DEPOSIT, path: DEPOSIT_PATH }] },
    },
    txid: null,
    reason: null,
    createdAt: '2026-11-28T00:30:00.000Z',
  });
}

const TRANSFER = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 value)']);
/** What the signer's node answers of the payment: `paid` to the deposit address in ETH, or in USDT with `token`, from `from`. */
function paying(
  paid: bigint,
  token = false,
  to = DEPOSIT,
  from = PAYER,
): (hash: string) => Promise<EvmPaymentAnswer | null> {
  return async (hash) =>
    hash !== PAYMENT_TX
      ? null
      : token
        ? {
            success: true,
            from,
            to: TOKEN,
            value: 0n,
            logs: [
              {
                address: TOKEN,
                topics: encodeEventTopics({
                  abi: TRANSFER,
                  eventName: 'Transfer',
                  args: { from, to },
                }) as string[],
                data: pad(toHex(paid)),
              },
            ],
          }
        : { success: true, from, to, value: paid, logs: [] };
}

const sign = (
  p: EvmRefundPlan,
  readPayment: ((hash: string) => Promise<EvmPaymentAnswer | null>) | undefined,
  ledger: RefundLedger = { refunds: [] },
) =>
  signEvmRefundPlan(p, config, root, {
    ...(readPayment && { readPayment }),
    ledger,
    confirm: async () => true,
    now: NOW,
  });

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SignerRefusal);
  return (error as Error).message;
}

describe('an EVM refund plan at the signer', () => {
  it('signs an honest ETH refund with the treasury key; the gateway takes exactly that transaction back', async () => {
    const honest = plan(parseEther('0.2'));
    const { signed, ledgerEntry } = await sign(honest, paying(parseEther('0.5')));
    expect(ledgerEntry).toMatchObject({ refundId: honest.refund.refundId, outpoints: [PAYMENT_TX], currency: 'ETH' });
    expect(ledgerEntry!.amount).toBe(parseEther('0.2').toString());
    expect(await checkEvmRefundSubmission(honest.transaction, signed.rawTx)).toMatchObject({ txid: signed.txid });
    // Another transaction of the treasury (another nonce) is not the plan's.
    const other = plan(parseEther('0.2'));
    other.transaction.nonce = 8;
    await expect(checkEvmRefundSubmission(other.transaction, signed.rawTx)).rejects.toThrow(/nonce differ/);
    // The plan's transaction signed by another key than the treasury's; and not a transaction at all.
    const forged = await signEvmRefundTransaction(honest.transaction, root.derive("m/44'/60'/9'/0/0"));
    await expect(checkEvmRefundSubmission(honest.transaction, forged.raw)).rejects.toThrow(
      /its signer \(0x[0-9a-fA-F]{40}\) differ/,
    );
    await expect(checkEvmRefundSubmission(honest.transaction, 'deadbeef')).rejects.toThrow(
      /not a signed EVM transaction/,
    );
  });

  it('signs an honest USDT refund: transfer(payer, amount) on the configured token', async () => {
    const { signed } = await sign(plan(25_000_000n, true), paying(40_000_000n, true));
    expect(signed.txid).toMatch(/^0x[0-9a-f]{64}$/);
  });

  it('refuses a transaction that pays another address or amount than the claim shows', async () => {
    const rewritten = plan(parseEther('0.2'));
    rewritten.transaction.to = ATTACKER;
    expect(await refusal(sign(rewritten, paying(parseEther('0.5'))))).toMatch(
      `pays ${ATTACKER}, not ${PAYER}, the address the payer confirmed`,
    );
    const token = plan(25_000_000n, true);
    token.transaction.data = encodeFunctionData({
      abi: parseAbi(['function transfer(address to, uint256 amount)']),
      args: [ATTACKER, 25_000_000n],
    });
    expect(await refusal(sign(token, paying(40_000_000n, true)))).toMatch(`transfers the token to ${ATTACKER}`);
    const more = plan(parseEther('0.2'));
    more.transaction.value = parseEther('0.3').toString();
    expect(await refusal(sign(more, paying(parseEther('0.5'))))).toMatch(/not the refund's 200000000000000000/);
  });

  it('signs an ETH refund less exactly its gas at the cap when the payer bears the fee; refuses a larger or a token fee', async () => {
    // 21,000 gas at 2 gwei: 0.000042 ETH, within maxGasPayerSpend.
    const gas = 21_000n * 2_000_000_000n;
    const honest = plan(parseEther('0.2'), false, gas);
    const { signed, ledgerEntry } = await sign(honest, paying(parseEther('0.5')));
    expect(ledgerEntry!.amount).toBe(parseEther('0.2').toString());
    expect(await checkEvmRefundSubmission(honest.transaction, signed.rawTx)).toMatchObject({ txid: signed.txid });
    // A gateway that shrinks the refund by a made-up fee: its transaction agrees with the plan, the fee does not.
    expect(await refusal(sign(plan(parseEther('0.2'), false, parseEther('0.01')), paying(parseEther('0.5'))))).toMatch(
      "the plan pays 0.19: the refund's 0.2 less 0.01 ETH, not less its transaction's fee of 0.000042 ETH",
    );
    expect(await refusal(sign(plan(25_000_000n, true, 1_000_000n), paying(40_000_000n, true)))).toMatch(
      'the plan takes the fee from a token refund',
    );
  });

  it("refuses a token of no configuration and decimals that are not the catalog token's", async () => {
    const unknown = plan(25_000_000n, true);
    unknown.token = { contract: ATTACKER, decimals: 6 };
    expect(await refusal(sign(unknown, paying(40_000_000n, true)))).toMatch(`the token ${ATTACKER}, not a token`);
    const lying = plan(25_000_000n, true);
    lying.token = { contract: TOKEN, decimals: 18 };
    expect(await refusal(sign(lying, paying(40_000_000n, true)))).toMatch(/in 18 decimals, not its 6/);
  });

  it('refuses a payment its node does not show paying this seed, or paying less than the refund; no node, no refund', async () => {
    expect(await refusal(sign(plan(parseEther('0.2')), paying(parseEther('0.5'), false, ATTACKER)))).toMatch(
      `paid no ETH to ${DEPOSIT} on your node`,
    );
    expect(await refusal(sign(plan(parseEther('0.2')), async () => null))).toMatch(/is not mined on your node/);
    expect(await refusal(sign(plan(parseEther('0.2')), paying(parseEther('0.1'))))).toMatch(
      /above what is left of its payment: 0.1 of 0.1 received/,
    );
    const elsewhere = plan(parseEther('0.2'));
    elsewhere.refund.payment.transfers[0]!.address = ATTACKER;
    expect(await refusal(sign(elsewhere, paying(parseEther('0.5'))))).toMatch(
      `${ATTACKER} is not the address of this seed at ${DEPOSIT_PATH}`,
    );
    expect(await refusal(sign(plan(parseEther('0.2')), undefined))).toMatch(/has no node/);
  });

  it('refuses a refund signed before, and one above the daily cap of its currency', async () => {
    const first = plan(parseEther('0.2'));
    const { ledgerEntry } = await sign(first, paying(parseEther('0.5')));
    expect(await refusal(sign(first, paying(parseEther('0.5')), { refunds: [ledgerEntry!] }))).toMatch(
      `refund ${first.refund.refundId} was signed on`,
    );
    expect(await refusal(sign(plan(parseEther('1.5')), paying(parseEther('2'))))).toMatch(
      /above this signer's refundDailyCap 1/,
    );
  });
});

describe('an EVM refund to the address the payment came from (decision 126)', () => {
  /** The summary the merchant confirmed when the plan was signed. */
  async function shown(p: EvmRefundPlan, readPayment: (hash: string) => Promise<EvmPaymentAnswer | null>) {
    let summary = '';
    await signEvmRefundPlan(p, config, root, {
      readPayment,
      ledger: { refunds: [] },
      confirm: async (s) => {
        summary = s;
        return true;
      },
      now: NOW,
    });
    return summary;
  }

  it("signs one to the payment's sender (the coin's from, the token Transfer's from, in any case) and says the merchant chose it", async () => {
    const eth = await shown(
      plan(parseEther('0.2'), false, undefined, { delivery: 'sender' }),
      paying(parseEther('0.5'), false, DEPOSIT, PAYER.toLowerCase() as typeof PAYER),
    );
    expect(eth).toContain(
      `pays 0.2 ETH to ${PAYER}, the address the payment came from, chosen by the merchant at 2026-11-28T00:00:00.000Z (exchange deposit addresses often cannot receive refunds)`,
    );
    expect(eth).not.toContain('the payer confirmed');
    expect(
      await shown(plan(25_000_000n, true, undefined, { delivery: 'sender' }), paying(40_000_000n, true)),
    ).toContain(`pays 25 USDT to ${PAYER}, the address the payment came from`);
  });

  it('refuses one to another address than the sender, naming both: a gateway calling its own address the sender', async () => {
    const forged = (token: boolean) =>
      plan(token ? 25_000_000n : parseEther('0.2'), token, undefined, {
        destination: ATTACKER,
        delivery: 'sender',
      });
    const expected = `the plan pays ${ATTACKER} as the address the payment came from, but the payment's transaction ${PAYMENT_TX} came from ${PAYER} on your node`;
    expect(await refusal(sign(forged(false), paying(parseEther('0.5'))))).toContain(expected);
    expect(await refusal(sign(forged(true), paying(40_000_000n, true)))).toContain(expected);
  });

  it("leaves a claim refund as it was: the payer's address, whoever paid", async () => {
    const summary = await shown(plan(parseEther('0.2')), paying(parseEther('0.5'), false, DEPOSIT, ATTACKER));
    expect(summary).toContain(
      `pays 0.2 ETH to ${PAYER}, the address the payer confirmed at 2026-11-28T00:00:00.000Z\n`,
    );
  });
});
