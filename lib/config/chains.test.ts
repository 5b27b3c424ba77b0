import { HDKey } from '@scure/bip32';
import { describe, expect, it } from 'vitest';
import { parseLiveChains } from './chains';
import { ConfigError, parseConfig } from './schema';

/** The XRP Ledger's genesis account: a valid classic address. */
const RIPPLE_ADDRESS = 'rHb9CJAWyB4rj91VRWn96DkukG4bwdtyTh';
const OWNER = '6f1c8f5e-3a9b-4c1d-9e2f-0a1b2c3d4e5f';
const XPUB =
  'xpub6ELHKXNimKbxMCytPh7EdC2QXx46T9qLDJWGnTraz1H9kMMFdcduoU69wh9cxP12wDxqAAfbaESWGYt5rREsX1J8iR2TEunvzvddduAPYcY';

describe('live networks from the environment', () => {
  it('has no live network in a bare environment', () => {
    expect(parseConfig({}).liveChains).toEqual([]);
  });

  it('reads a UTXO network with credentials from the URL or from their variables, never keeping them in the URL', () => {
    const [ltc] = parseConfig({
      LITECOIN_RPC_URL: 'http://rpc%40user:p%3Ass@127.0.0.1:9332/',
      LITECOIN_XPUB: XPUB,
      LITECOIN_CHAIN: 'regtest',
      LITECOIN_CONFIRMATIONS: '3',
    }).liveChains;
    expect(ltc).toMatchObject({
      network: 'litecoin',
      family: 'utxo',
      rpc: { url: 'http://127.0.0.1:9332/', user: 'rpc@user', password: 'p:ss', timeoutMs: 15000 },
      chain: 'regtest',
      confirmations: 3,
      mempool: true,
      tokens: [],
    });
    const [btc] = parseLiveChains({
      BITCOIN_RPC_URL: 'https://node.example/',
      BITCOIN_RPC_USER: 'u',
      BITCOIN_RPC_PASSWORD: 'p',
      BITCOIN_XPUB: XPUB,
    }).chains;
    expect(btc).toMatchObject({ rpc: { user: 'u', password: 'p' }, chain: 'mainnet', confirmations: 2 });
  });

  it('reads several nodes, in order, each with its own credentials or the shared ones', () => {
    const [ltc] = parseLiveChains({
      LITECOIN_RPC_URL: ' http://a:b@10.0.0.1:9332/ , http://10.0.0.2:9332/',
      LITECOIN_RPC_USER: 'shared',
      LITECOIN_RPC_PASSWORD: 'secret',
      LITECOIN_RPC_MAX_LAG: '100',
      LITECOIN_XPUB: XPUB,
    }).chains;
    expect(ltc!.nodes).toEqual([
      { url: 'http://10.0.0.1:9332/', user: 'a', password: 'b', timeoutMs: 15000 },
      { url: 'http://10.0.0.2:9332/', user: 'shared', password: 'secret', timeoutMs: 15000 },
    ]);
    expect(ltc!.rpc).toEqual(ltc!.nodes[0]);
    expect(ltc!.maxNodeLag).toBe(100);
    expect(parseLiveChains({ LITECOIN_RPC_URL: 'http://h', LITECOIN_XPUB: XPUB }).chains[0]!.maxNodeLag).toBe(5);
  });

  it('reads an EVM network: catalog tokens by default, overridable, or none', () => {
    const base = { ETHEREUM_RPC_URL: 'https://eth.example/v3/key', ETHEREUM_XPUB: XPUB };
    const [byDefault] = parseLiveChains(base).chains;
    expect(byDefault).toMatchObject({ family: 'evm', chainId: 1, confirmations: 12, headLag: 3, logBlockRange: 1000 });
    expect(byDefault!.tokens.map((t) => t.ticker)).toEqual(['USDT', 'USDC']);
    const [custom] = parseLiveChains({
      ...base,
      ETHEREUM_TOKENS: 'usdc:0x1111111111111111111111111111111111111111',
      ETHEREUM_CHAIN_ID: '1337',
      ETHEREUM_HEAD_LAG: '0',
    }).chains;
    expect(custom).toMatchObject({
      chainId: 1337,
      headLag: 0,
      tokens: [{ ticker: 'USDC', contract: '0x1111111111111111111111111111111111111111' }],
    });
    expect(parseLiveChains({ ...base, ETHEREUM_TOKENS: 'none' }).chains[0]!.tokens).toEqual([]);
  });

  it('reads Tron: a count or solidified blocks, base58 token contracts, the API key', () => {
    const base = { TRON_RPC_URL: 'https://api.trongrid.io', TRON_XPUB: XPUB };
    const [byDefault] = parseLiveChains(base).chains;
    expect(byDefault).toMatchObject({
      family: 'tron',
      confirmations: 19,
      solidified: false,
      // A block behind the head: a provider may answer a block before its execution results.
      headLag: 1,
      tokens: [{ ticker: 'USDT', contract: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }],
    });
    expect(byDefault!.apiKey).toBeUndefined();
    expect(parseLiveChains({ ...base, TRON_HEAD_LAG: '0' }).chains[0]).toMatchObject({ headLag: 0 });
    const [custom] = parseLiveChains({
      ...base,
      TRON_API_KEY: 'k-123',
      TRON_CONFIRMATIONS: 'solid',
      TRON_TOKENS: 'usdt:TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf',
    }).chains;
    expect(custom).toMatchObject({
      apiKey: 'k-123',
      confirmations: 1,
      solidified: true,
      tokens: [{ ticker: 'USDT', contract: 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf' }],
    });
    expect(parseLiveChains({ ...base, TRON_CONFIRMATIONS: '25' }).chains[0]).toMatchObject({
      confirmations: 25,
      solidified: false,
    });
    expect(parseLiveChains({ ...base, TRON_TOKENS: 'none' }).chains[0]!.tokens).toEqual([]);
  });

  it('reads a UTXO key as a descriptor with its origin: the pool derives from its /0, collections from the origin', () => {
    const master = HDKey.fromMasterSeed(new Uint8Array(32).fill(1));
    const account = master.derive("m/84'/2'/0'");
    const fingerprint = master.fingerprint.toString(16).padStart(8, '0');
    const [ltc] = parseLiveChains({
      LITECOIN_RPC_URL: 'http://h',
      LITECOIN_XPUB: `wpkh([${fingerprint}/84'/2'/0']${account.publicExtendedKey}/0/*)`,
    }).chains;
    expect(ltc!.xpub).toBe(account.deriveChild(0).publicExtendedKey);
    expect(ltc!.keyDescriptor).toMatch(
      new RegExp(`^wpkh\\(\\[${fingerprint}/84h/2h/0h\\]xpub.+/0/\\*\\)#[a-z0-9]{8}$`),
    );
    const problems = (env: Record<string, string>) =>
      parseLiveChains({ LITECOIN_RPC_URL: 'http://h', ...env }).issues.join('\n');
    expect(problems({ LITECOIN_XPUB: `pkh([${fingerprint}/84h/2h/0h]${account.publicExtendedKey}/0/*)` })).toMatch(
      /LITECOIN_XPUB: litecoin deposit addresses are wpkh/,
    );
    expect(problems({ LITECOIN_XPUB: `wpkh([${fingerprint}/84h/2h/0h]${account.privateExtendedKey}/0/*)` })).toMatch(
      /LITECOIN_XPUB: refusing an extended PRIVATE key/,
    );
    expect(problems({ LITECOIN_XPUB: `wpkh([${fingerprint}/84h/2h]${account.publicExtendedKey}/0/*)` })).toMatch(
      /depth/,
    );
  });

  it('names the variable of every problem', () => {
    const problems = (env: Record<string, string>) => {
      try {
        parseConfig(env);
        return '';
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
    };
    expect(problems({ LITECOIN_XPUB: XPUB })).toMatch(/LITECOIN_RPC_URL: is required when LITECOIN_XPUB is set/);
    expect(problems({ LITECOIN_RPC_URL: 'http://127.0.0.1:9332' })).toMatch(/LITECOIN_XPUB: is required/);
    expect(problems({ LITECOIN_RPC_URL: 'ftp://x', LITECOIN_XPUB: XPUB })).toMatch(/LITECOIN_RPC_URL: must be an http/);
    // An entry is named by its place, never quoted (it may hold a key).
    const second = problems({
      ETHEREUM_RPC_URL: 'https://a.example/,htps://b.example/v3/SECRETKEY',
      ETHEREUM_XPUB: XPUB,
    });
    expect(second).toMatch(/ETHEREUM_RPC_URL: entry 2 of 2 is not an http/);
    expect(second).not.toMatch(/SECRETKEY/);
    expect(problems({ LITECOIN_RPC_URL: 'http://h/,http://h/', LITECOIN_XPUB: XPUB })).toMatch(
      /LITECOIN_RPC_URL: lists the same node twice/,
    );
    expect(problems({ LITECOIN_RPC_URL: ' , ', LITECOIN_XPUB: XPUB })).toMatch(/LITECOIN_RPC_URL: must be an http/);
    expect(problems({ LITECOIN_RPC_URL: 'http://h', LITECOIN_XPUB: XPUB, LITECOIN_RPC_MAX_LAG: '-1' })).toMatch(
      /LITECOIN_RPC_MAX_LAG: must be a whole number/,
    );
    expect(problems({ LITECOIN_RPC_URL: 'http://h', LITECOIN_XPUB: XPUB, LITECOIN_CHAIN: 'devnet' })).toMatch(
      /LITECOIN_CHAIN: must be mainnet, testnet or regtest/,
    );
    expect(problems({ LITECOIN_RPC_URL: 'http://h', LITECOIN_XPUB: XPUB, LITECOIN_CONFIRMATIONS: '0' })).toMatch(
      /LITECOIN_CONFIRMATIONS: must be between 1 and 1000/,
    );
    expect(problems({ LITECOIN_RPC_URL: 'http://h', LITECOIN_XPUB: XPUB, LITECOIN_TOKENS: 'none' })).toMatch(
      /LITECOIN_TOKENS: applies to EVM, Tron and XRP Ledger networks only/,
    );
    expect(problems({ LITECOIN_RPC_URL: 'http://h', LITECOIN_XPUB: XPUB, LITECOIN_RPC_USER: 'u' })).toMatch(
      /LITECOIN_RPC_PASSWORD: RPC user and password go together/,
    );
    expect(
      problems({
        BASE_RPC_URL: 'http://h',
        BASE_XPUB: XPUB,
        BASE_TOKENS: 'USDT:0x1111111111111111111111111111111111111111',
      }),
    ).toMatch(/BASE_TOKENS: USDT is not a token of base \(known: USDC\)/);
    expect(problems({ BSC_RPC_URL: 'http://h', BSC_XPUB: XPUB, BSC_TOKENS: 'USDT:0x12' })).toMatch(
      /BSC_TOKENS: "USDT:0x12" is not TICKER:0x/,
    );
    const tron = { TRON_RPC_URL: 'https://api.trongrid.io', TRON_XPUB: XPUB };
    expect(problems({ TRON_RPC_URL: 'http://h' })).toMatch(/TRON_XPUB: is required/);
    expect(problems({ ...tron, TRON_CONFIRMATIONS: 'final' })).toMatch(
      /TRON_CONFIRMATIONS: must be a whole number, or "solid"/,
    );
    expect(problems({ ...tron, TRON_CONFIRMATIONS: '0' })).toMatch(
      /TRON_CONFIRMATIONS: must be between 1 and 1000, or "solid"/,
    );
    expect(problems({ ...tron, TRON_TOKENS: 'USDT:0xdAC17F958D2ee523a2206206994597C13D831ec7' })).toMatch(
      /TRON_TOKENS: "USDT:0xdAC17F958D2ee523a2206206994597C13D831ec7" is not TICKER:T<33 base58 characters>/,
    );
    expect(problems({ ...tron, TRON_TOKENS: 'USDC:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' })).toMatch(
      /TRON_TOKENS: USDC is not a token of tron \(known: USDT\)/,
    );
    expect(problems({ ...tron, TRON_API_KEY: 'two words' })).toMatch(
      /TRON_API_KEY: must be 1 to 200 printable characters/,
    );
    expect(problems({ ...tron, TRON_CHAIN: 'testnet' })).toBe('');
    expect(problems({ ...tron, TRON_CHAIN: 'nile' })).toMatch(/TRON_CHAIN: must be mainnet, testnet or regtest/);
    expect(problems({ ...tron, TRON_HEAD_LAG: 'one' })).toMatch(/TRON_HEAD_LAG: must be a whole number/);
    expect(problems({ LITECOIN_RPC_URL: 'http://h', LITECOIN_XPUB: XPUB, LITECOIN_HEAD_LAG: '1' })).toMatch(
      /LITECOIN_HEAD_LAG: applies to EVM and Tron networks only/,
    );
    expect(problems({ LITECOIN_RPC_URL: 'http://h', LITECOIN_XPUB: XPUB, LITECOIN_API_KEY: 'k' })).toMatch(
      /LITECOIN_API_KEY: applies to Tron only/,
    );
    expect(problems({ CHAIN_RPC_TIMEOUT_MS: '5' })).toMatch(/CHAIN_RPC_TIMEOUT_MS/);
    // Several at once, each on its line, with the other settings' problems.
    const many = problems({ PORT: 'x', LITECOIN_XPUB: XPUB, DOGECOIN_RPC_URL: 'http://h' });
    expect(many).toMatch(/PORT/);
    expect(many).toMatch(/LITECOIN_RPC_URL/);
    expect(many).toMatch(/DOGECOIN_XPUB/);
  });

  it('reads the XRP Ledger: a node and the one receiving account, no extended public key; the catalog issuers by default', () => {
    const [xrp] = parseLiveChains({
      RIPPLE_RPC_URL: 'http://admin:secret@127.0.0.1:5005/',
      RIPPLE_ADDRESS,
      RIPPLE_UNTAGGED_MERCHANT: OWNER.toUpperCase(),
    }).chains;
    expect(xrp).toMatchObject({
      network: 'ripple',
      family: 'xrpl',
      rpc: { url: 'http://127.0.0.1:5005/', user: 'admin', password: 'secret' },
      account: RIPPLE_ADDRESS,
      untaggedMerchant: OWNER,
      confirmations: 1,
      tokens: [{ ticker: 'RLUSD', contract: 'rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De' }],
    });
    const ripple = { RIPPLE_RPC_URL: 'https://xrpl.example/', RIPPLE_ADDRESS, RIPPLE_UNTAGGED_MERCHANT: OWNER };
    expect(parseLiveChains({ ...ripple, RIPPLE_CONFIRMATIONS: '2' }).chains[0]!.confirmations).toBe(2);
    // Another issuer (a test network's; the ticker in any case), or XRP alone.
    expect(
      parseLiveChains({ ...ripple, RIPPLE_TOKENS: 'rlusd:rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe' }).chains[0]!.tokens,
    ).toEqual([{ ticker: 'RLUSD', contract: 'rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe' }]);
    expect(parseLiveChains({ ...ripple, RIPPLE_TOKENS: 'none' }).chains[0]!.tokens).toEqual([]);
  });

  it('reads Solana: a node and the receiving wallet, the catalog mints by default; no confirmation count', () => {
    const wallet = 'HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk';
    const solana = { SOLANA_RPC_URL: 'https://rpc.example/', SOLANA_ADDRESS: wallet, SOLANA_UNTAGGED_MERCHANT: OWNER };
    expect(parseLiveChains(solana).chains[0]).toMatchObject({
      network: 'solana',
      family: 'solana',
      account: wallet,
      untaggedMerchant: OWNER,
      confirmations: 1,
      maxNodeLag: 150,
      tokens: [
        { ticker: 'USDT', contract: 'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB' },
        { ticker: 'USDC', contract: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v' },
      ],
    });
    expect(
      parseLiveChains({ ...solana, SOLANA_TOKENS: 'usdc:4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU' }).chains[0]!
        .tokens,
    ).toEqual([{ ticker: 'USDC', contract: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU' }]);
    const issues = (env: Record<string, string>) => parseLiveChains({ ...solana, ...env }).issues.join('\n');
    expect(issues({ SOLANA_CONFIRMATIONS: '3' })).toMatch(/SOLANA_CONFIRMATIONS: does not apply to solana .*finalized/);
    expect(issues({ SOLANA_XPUB: XPUB })).toMatch(/SOLANA_XPUB: does not apply to solana/);
    expect(issues({ SOLANA_ADDRESS: RIPPLE_ADDRESS.replace('r', '0') })).toMatch(/SOLANA_ADDRESS: must be a Solana/);
    expect(issues({ SOLANA_TOKENS: 'USDC:0xdAC17F958D2ee523a2206206994597C13D831ec7' })).toMatch(/SOLANA_TOKENS:/);
  });

  it('names the variable of every XRP Ledger problem', () => {
    const issues = (env: Record<string, string>) =>
      parseLiveChains({ RIPPLE_UNTAGGED_MERCHANT: OWNER, ...env }).issues.join('\n');
    expect(issues({ RIPPLE_ADDRESS })).toMatch(
      /RIPPLE_RPC_URL: is required when RIPPLE_ADDRESS, RIPPLE_UNTAGGED_MERCHANT are set/,
    );
    expect(issues({ RIPPLE_RPC_URL: 'http://h' })).toMatch(/RIPPLE_ADDRESS: is required with RIPPLE_RPC_URL/);
    expect(issues({ RIPPLE_RPC_URL: 'ftp://h', RIPPLE_ADDRESS })).toMatch(/RIPPLE_RPC_URL: must be an http/);
    expect(
      issues({ RIPPLE_RPC_URL: 'http://h', RIPPLE_ADDRESS: 'XV5sbeHr8ir6M1MTbYd3MxUQ8D7RX6a9K3aD6hXbbETKcNz' }),
    ).toMatch(/RIPPLE_ADDRESS: must be a classic XRP Ledger address/);
    expect(issues({ RIPPLE_RPC_URL: 'http://h', RIPPLE_ADDRESS, RIPPLE_XPUB: XPUB })).toMatch(
      /RIPPLE_XPUB: does not apply to ripple .*set RIPPLE_ADDRESS/,
    );
    expect(issues({ RIPPLE_RPC_URL: 'http://h', RIPPLE_ADDRESS, RIPPLE_CONFIRMATIONS: '0' })).toMatch(
      /RIPPLE_CONFIRMATIONS: must be between 1 and 1000/,
    );
    expect(issues({ RIPPLE_RPC_URL: 'http://h', RIPPLE_ADDRESS, RIPPLE_RPC_USER: 'u' })).toMatch(
      /RIPPLE_RPC_PASSWORD: RPC user and password go together/,
    );
    expect(issues({ LITECOIN_RPC_URL: 'http://h', LITECOIN_XPUB: XPUB, LITECOIN_ADDRESS: RIPPLE_ADDRESS })).toMatch(
      /LITECOIN_ADDRESS: applies to tag networks \(ripple, solana\) only/,
    );
    expect(issues({ RIPPLE_RPC_URL: 'http://h', RIPPLE_ADDRESS, RIPPLE_UNTAGGED_MERCHANT: 'shop-1' })).toMatch(
      /RIPPLE_UNTAGGED_MERCHANT: must be a merchant id/,
    );
    expect(parseLiveChains({ RIPPLE_RPC_URL: 'http://h', RIPPLE_ADDRESS }).issues.join('\n')).toMatch(
      /RIPPLE_UNTAGGED_MERCHANT: is required with RIPPLE_RPC_URL/,
    );
    expect(issues({ LITECOIN_RPC_URL: 'http://h', LITECOIN_XPUB: XPUB, LITECOIN_UNTAGGED_MERCHANT: OWNER })).toMatch(
      /LITECOIN_UNTAGGED_MERCHANT: applies to tag networks/,
    );
    expect(
      parseLiveChains({ RIPPLE_RPC_URL: 'http://h', RIPPLE_ADDRESS: 'rbad', RIPPLE_UNTAGGED_MERCHANT: OWNER }).chains,
    ).toEqual([]);
    const ripple = { RIPPLE_RPC_URL: 'http://h', RIPPLE_ADDRESS };
    expect(issues({ ...ripple, RIPPLE_TOKENS: 'RLUSD:0xdAC17F958D2ee523a2206206994597C13D831ec7' })).toMatch(
      /RIPPLE_TOKENS: "RLUSD:0xdAC17F958D2ee523a2206206994597C13D831ec7" is not TICKER:r<issuer account>/,
    );
    expect(issues({ ...ripple, RIPPLE_TOKENS: 'RLUSD' })).toMatch(
      /RIPPLE_TOKENS: "RLUSD" is not TICKER:r<issuer account>/,
    );
    expect(issues({ ...ripple, RIPPLE_TOKENS: 'USDT:rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De' })).toMatch(
      /RIPPLE_TOKENS: USDT is not a token of ripple \(known: RLUSD\)/,
    );
    expect(issues({ ...ripple, RIPPLE_TOKENS: 'XRP:rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De' })).toMatch(
      /RIPPLE_TOKENS: XRP is not a token of ripple/,
    );
    expect(
      issues({
        ...ripple,
        RIPPLE_TOKENS: 'RLUSD:rMxCKbEDwqr76QuheSUMdEGf4B9xJ8m5De,RLUSD:rPT1Sjq2YGrBMTttX4GZHjKu9dyfzbpAYe',
      }),
    ).toMatch(/RIPPLE_TOKENS: RLUSD is listed twice/);
    expect(parseLiveChains({ ...ripple, RIPPLE_UNTAGGED_MERCHANT: OWNER, RIPPLE_TOKENS: 'RLUSD' }).chains).toEqual([]);
  });
});
