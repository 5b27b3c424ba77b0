/**
 * `npm run bench:collect`: what collecting EVM deposits costs, the EIP-7702 batch and
 * fund-then-transfer side by side in one run (docs/collections.md, docs/decisions/085). On anvil in
 * the Osaka rules (tests/support/evm.ts), 20 addresses holding the test token (6 decimals) and 5
 * holding the native coin are collected by the batch (one sweep, one clear), paid again, and
 * collected by the fallback (a funding per token address, a transfer per balance). For each method:
 * transactions, execution gas used, calldata bytes (the `data` field) and whole signed transaction
 * bytes (what a rollup posts to L1, authorization list included), in total and per collected address,
 * and the gas the plan reserved against what was used (the plan's bounds, lib/chains/evm/transactions
 * plan.ts `GAS`). Its last line is `BENCH_JSON {...}`.
 */
import { parseEther, size, type Address, type Hex } from 'viem';
import { parseTransaction } from 'viem';
import {
  EVM_DEPOSIT_CHAIN_PATH,
  EVM_GAS_PAYER_PATH,
  addressOfKey,
  buildEvmCollectionPlan,
  reviewEvmPlan,
  signEvmPlan,
  sweeperDeployment,
  type EvmCollectionPlan,
} from '../../lib/chains/evm/transactions';
import { planFees, readHoldings } from '../../lib/chains/evm';
import { rootOfPhrase } from '../signer/sign-plan';
import { CHAIN_ID, deployToken, sendRawAndMine, sendToken, startEvmNode } from '../../tests/support/evm';
import { BENCH_JSON } from './baseline';

const TOKEN_DEPOSITS = 20;
const NATIVE_DEPOSITS = 5;
const TREASURY: Address = '0x7e57000000000000000000000000000000C0FFee';
/** A BIP 39 test vector's phrase: its addresses are not anvil's funded accounts. */
const root = rootOfPhrase('legal winner thank year wave sausage worth useful legal winner thank yellow');

interface Figures {
  method: 'sweep' | 'transfers';
  addresses: number;
  transactions: number;
  gasUsed: number;
  gasReserved: number;
  calldataBytes: number;
  signedBytes: number;
  perAddress: { gasUsed: number; calldataBytes: number; signedBytes: number };
  /** Gas used by the transactions of each purpose (sweep, clear, fund, transfer). */
  byPurpose: Record<string, number>;
  /** Fees paid, in wei, and the native coin left on the deposit addresses after (gas funded and not used: dust). */
  feesWei: string;
  leftOnDepositsWei: string;
}

async function main() {
  const node = await startEvmNode();
  try {
    const [funder] = node.accounts as [Address];
    const token = await deployToken(node, funder, 'USDT', 6);
    const gasPayer = addressOfKey(root.derive(EVM_GAS_PAYER_PATH));
    await node.client.wallet.sendTransaction({
      account: funder,
      ...sweeperDeployment(TREASURY),
      gas: 1_000_000n,
    } as never);
    await node.client.wallet.sendTransaction({ account: funder, to: gasPayer, value: parseEther('10') } as never);
    await node.mine();
    const chain = root.derive(EVM_DEPOSIT_CHAIN_PATH);
    const indexes = Array.from({ length: TOKEN_DEPOSITS + NATIVE_DEPOSITS }, (_, i) => i);
    const deposits = indexes.map((i) => ({
      address: addressOfKey(chain.deriveChild(i)),
      path: `${EVM_DEPOSIT_CHAIN_PATH}/${i}`,
      personal: false,
    }));

    const pay = async () => {
      for (const d of deposits.slice(0, TOKEN_DEPOSITS))
        await sendToken(node, token, funder, 'mint', d.address as Address, 25_000_000n);
      for (const d of deposits.slice(TOKEN_DEPOSITS))
        await node.client.wallet.sendTransaction({
          account: funder,
          to: d.address,
          value: parseEther('0.05'),
        } as never);
      await node.mine();
    };

    const collect = async (method: 'sweep' | 'transfers'): Promise<Figures> => {
      await pay();
      const fees = await planFees(node.client as never);
      const plan: EvmCollectionPlan = buildEvmCollectionPlan({
        planId: crypto.randomUUID(),
        mode: 'live',
        network: { name: 'ethereum', chainId: CHAIN_ID, nativeTicker: 'ETH' },
        tokens: [{ ticker: 'USDT', contract: token, decimals: 6 }],
        treasury: TREASURY,
        gasPayer: {
          address: gasPayer,
          path: EVM_GAS_PAYER_PATH,
          nonce: await node.client.getTransactionCount({ address: gasPayer }),
        },
        deposits: await readHoldings(node.client as never, deposits, [token]),
        fees,
        blockGasLimit: fees.blockGasLimit,
        method,
        createdAt: new Date().toISOString(),
      })!;
      reviewEvmPlan(plan, root, {
        chainId: CHAIN_ID,
        treasury: TREASURY,
        tokens: [token],
        gasPayerPath: EVM_GAS_PAYER_PATH,
        maxGasPayerSpend: parseEther('10'),
      });
      const signed = await signEvmPlan(plan, root);
      // The gas payer's transactions first: a deposit key pays its transfers with what it was funded.
      const receipts = [
        ...(await sendRawAndMine(
          node,
          signed.filter((t) => t.from === gasPayer).map((t) => t.raw),
        )),
        ...(await sendRawAndMine(
          node,
          signed.filter((t) => t.from !== gasPayer).map((t) => t.raw),
        )),
      ];
      if (receipts.some((r) => r.status !== 'success')) throw new Error(`a ${method} transaction reverted`);
      for (const [i, t] of plan.transactions.entries())
        if (BigInt(t.gas) < receipts[i]!.gasUsed) throw new Error(`transaction ${i} used more than its bound`);
      const gasUsed = Number(receipts.reduce((s, r) => s + r.gasUsed, 0n));
      const calldataBytes = signed.reduce((s, t) => s + size(parseTransaction(t.raw).data ?? '0x'), 0);
      const signedBytes = signed.reduce((s, t) => s + size(t.raw as Hex), 0);
      const n = indexes.length;
      const byPurpose: Record<string, number> = {};
      for (const [i, t] of plan.transactions.entries())
        byPurpose[t.purpose] = (byPurpose[t.purpose] ?? 0) + Number(receipts[i]!.gasUsed);
      const left = (
        await Promise.all(deposits.map((d) => node.client.getBalance({ address: d.address as Address })))
      ).reduce((sum, b) => sum + b, 0n);
      return {
        feesWei: receipts.reduce((sum, r) => sum + r.gasUsed * r.effectiveGasPrice, 0n).toString(),
        leftOnDepositsWei: left.toString(),
        byPurpose,
        method,
        addresses: n,
        transactions: signed.length,
        gasUsed,
        gasReserved: plan.transactions.reduce((s, t) => s + Number(t.gas), 0),
        calldataBytes,
        signedBytes,
        perAddress: {
          gasUsed: Math.round(gasUsed / n),
          calldataBytes: Math.round(calldataBytes / n),
          signedBytes: Math.round(signedBytes / n),
        },
      };
    };

    const sweep = await collect('sweep');
    const transfers = await collect('transfers');
    console.log(
      `anvil (osaka), ${TOKEN_DEPOSITS} token and ${NATIVE_DEPOSITS} native deposits, collected twice into one treasury`,
    );
    console.log(
      'method      txs  gas used  gas reserved  calldata B  signed B  | per address: gas  calldata B  signed B',
    );
    for (const f of [sweep, transfers])
      console.log(
        `${f.method.padEnd(10)} ${String(f.transactions).padStart(4)} ${String(f.gasUsed).padStart(9)} ${String(f.gasReserved).padStart(13)} ${String(f.calldataBytes).padStart(11)} ${String(f.signedBytes).padStart(9)}  | ${String(f.perAddress.gasUsed).padStart(17)} ${String(f.perAddress.calldataBytes).padStart(11)} ${String(f.perAddress.signedBytes).padStart(9)}`,
      );
    for (const f of [sweep, transfers])
      console.log(
        `${f.method}: gas used by ${Object.entries(f.byPurpose)
          .map(([purpose, gas]) => `${purpose} ${gas}`)
          .join(', ')}; fees ${f.feesWei} wei; left on the deposit addresses ${f.leftOnDepositsWei} wei`,
      );
    console.log(`${BENCH_JSON}${JSON.stringify({ sweep, transfers })}`);
  } finally {
    await node.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
