import 'server-only';
/**
 * The receiving wallet's token accounts: SPL payments land in the wallet's associated token
 * account for the mint, an address derived from the wallet, the mint and the mint's token program
 * (https://spl.solana.com/associated-token-account), so a Token-2022 mint's account is another
 * address than a classic mint's would be. The gateway cannot create them (it holds no key): going
 * live checks, before the first scan, that each configured mint is a mint of the catalog token's
 * decimals, and that the wallet's account for it exists, belongs to the wallet and is not frozen,
 * and says which account to create when one does not. A merchant's own wallet (docs/decisions/096)
 * is checked the same way when the watcher first names it, and only warned of: one merchant's
 * missing account does not stop the network.
 *
 * Layouts read (https://github.com/solana-program/token, state.rs): a mint's decimals at byte 44;
 * a token account's mint (0..32), owner (32..64) and state (byte 108: 1 initialized, 2 frozen).
 * Token-2022 keeps these offsets and adds extensions after byte 165; its transfer fee (extension
 * type 1) is read only to warn that payments credit what arrives, the fee left out.
 */
import { address, type Address } from '@solana/kit';
import { findAssociatedTokenPda, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { base58 } from '@scure/base';
import type { Network } from '../../catalog';
import { envPrefix } from '../../config';
import { TOKEN_2022_PROGRAM_ADDRESS } from './transactions';
import { log } from '../../log';
import { accountAnswer, type AccountAnswer } from './answers';
import { SolanaRpcError, type SolanaRpcClient } from './rpc';
import type { ReceivingAccounts } from './transfers';

const TOKEN_PROGRAMS = new Set<string>([TOKEN_PROGRAM_ADDRESS, TOKEN_2022_PROGRAM_ADDRESS]);

const MINT_SIZE = 82;
const TOKEN_ACCOUNT_SIZE = 165;
const INITIALIZED = 1;
const FROZEN = 2;
/** Token-2022: the account type byte after the base layout, then (type u16, length u16, value) extensions. */
const EXTENSIONS_AT = TOKEN_ACCOUNT_SIZE + 1;
const TRANSFER_FEE_CONFIG = 1;

/** A configured token's mint as checked: where its payments are read, and under which token program. */
export interface CheckedMint {
  ticker: string;
  mint: string;
  tokenProgram: Address;
}

const dataOf = (account: NonNullable<AccountAnswer>) => Buffer.from(account.data[0], 'base64');

/** The wallet's associated token account for `mint` under `tokenProgram`. */
export async function associatedTokenAccount(wallet: string, mint: string, tokenProgram: Address): Promise<string> {
  const [ata] = await findAssociatedTokenPda({ owner: address(wallet), mint: address(mint), tokenProgram });
  return ata;
}

/** The highest transfer fee, in basis points, a Token-2022 mint's data sets (older or newer), or 0. */
export function transferFeeBasisPoints(data: Uint8Array): number {
  let at = EXTENSIONS_AT;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  while (at + 4 <= data.length) {
    const type = view.getUint16(at, true);
    const length = view.getUint16(at + 2, true);
    if (type === TRANSFER_FEE_CONFIG && length >= 108) {
      // authorities (64), withheld amount (8), then two fees of (epoch u64, maximum u64, basis points u16).
      return Math.max(view.getUint16(at + 4 + 88, true), view.getUint16(at + 4 + 106, true));
    }
    at += 4 + length;
  }
  return 0;
}

/**
 * Checks each configured mint: an account of the SPL Token or Token-2022 program with the catalog
 * token's decimals. Throws, naming the variable to change, when one is not; warns of a transfer fee.
 */
export async function checkedMints(rpc: SolanaRpcClient, network: Network): Promise<CheckedMint[]> {
  const prefix = envPrefix(network);
  const mints: CheckedMint[] = [];
  for (const currency of network.currencies.filter((c) => c.contract)) {
    const mint = currency.contract!;
    const where = `${prefix}_TOKENS: ${currency.ticker} (mint ${mint})`;
    const mintAccount = (await read(rpc, mint)).value;
    if (!mintAccount || !TOKEN_PROGRAMS.has(mintAccount.owner) || dataOf(mintAccount).length < MINT_SIZE)
      throw new SolanaRpcError(`${rpc.label}: ${where} is not a mint of the SPL Token or Token-2022 program`);
    const mintData = dataOf(mintAccount);
    if (mintData[44] !== currency.decimals)
      throw new SolanaRpcError(
        `${rpc.label}: ${where} has ${mintData[44]} decimals; ${currency.ticker} on ${network.name} has ${currency.decimals}`,
      );
    const tokenProgram = address(mintAccount.owner);
    const fee = tokenProgram === TOKEN_2022_PROGRAM_ADDRESS ? transferFeeBasisPoints(mintData) : 0;
    if (fee > 0)
      log.warn('a Solana mint withholds a transfer fee: its payments credit what arrives, the fee left out', {
        network: network.name,
        currency: currency.ticker,
        mint,
        basisPoints: fee,
      });
    mints.push({ ticker: currency.ticker, mint, tokenProgram });
  }
  return mints;
}

const read = (rpc: SolanaRpcClient, account: string) =>
  rpc.call('getAccountInfo', [account, { encoding: 'base64', commitment: 'finalized' }], accountAnswer);

/**
 * Where `wallet` is paid: itself (SOL) and its associated token account for each of `mints`, all
 * of them whatever their state (an account a payment creates is read from its first transaction),
 * and what keeps each unusable one from receiving (missing, another's, frozen), naming the account
 * and how to create it. `whose` names the wallet in those: the variable that sets it, or the
 * merchant's.
 */
export async function walletAccounts(
  rpc: SolanaRpcClient,
  network: Network,
  wallet: string,
  whose: string,
  mints: readonly CheckedMint[],
): Promise<{ receiving: ReceivingAccounts; problems: string[] }> {
  const prefix = envPrefix(network);
  const tokens: ReceivingAccounts['tokens'][number][] = [];
  const problems: string[] = [];
  for (const { ticker, mint, tokenProgram } of mints) {
    const where = `${prefix}_TOKENS: ${ticker} (mint ${mint})`;
    const account = await associatedTokenAccount(wallet, mint, tokenProgram);
    tokens.push({ account, mint, ticker });
    const found = (await read(rpc, account)).value;
    const create =
      `create it with \`spl-token create-account ${mint} --owner ${wallet} --fee-payer <keypair>` +
      `${tokenProgram === TOKEN_2022_PROGRAM_ADDRESS ? ` --program-id ${TOKEN_2022_PROGRAM_ADDRESS}` : ''}\` ` +
      `(or by sending the wallet any amount of ${ticker} from a wallet that creates it)`;
    if (!found) {
      problems.push(
        `${rpc.label}: ${where}: the receiving wallet ${wallet} (${whose}) has no token account for it: ` +
          `its associated token account ${account} does not exist; ${create}`,
      );
      continue;
    }
    const data = dataOf(found);
    const owner = data.length >= TOKEN_ACCOUNT_SIZE ? base58.encode(data.subarray(32, 64)) : '';
    if (found.owner !== tokenProgram || base58.encode(data.subarray(0, 32)) !== mint || owner !== wallet)
      problems.push(`${rpc.label}: ${where}: ${account} is not the ${whose} wallet's token account for the mint`);
    else if (data[108] !== INITIALIZED)
      problems.push(
        `${rpc.label}: ${where}: the wallet's token account ${account} is ${data[108] === FROZEN ? 'frozen' : 'not initialized'}: it cannot receive`,
      );
  }
  const native = network.currencies.find((c) => !c.contract)!.ticker;
  return { receiving: { wallet, native, tokens }, problems };
}
