/**
 * The fee payer kept per network (docs/decisions/099): an EVM or Tron network's own address (its
 * checksum checked) and a derivation path; refused naming the field, never with the value.
 */
import { describe, expect, it } from 'vitest';
import { checkFeePayer } from './fee-payers';

const GAS_PAYER = '0x52908400098527886E0F7030069857D2E4169EE7';
const TRON = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

function refusal(request: { network: string; address: string; path: string }): { kind: string; message: string } {
  try {
    checkFeePayer({ mode: 'test', ...request });
  } catch (error) {
    return error as Error & { kind: string };
  }
  throw new Error('accepted');
}

describe('checkFeePayer', () => {
  it('keeps an EVM gas payer and a Tron resource account, trimmed', () => {
    expect(
      checkFeePayer({ network: 'Ethereum', mode: 'test', address: ` ${GAS_PAYER} `, path: "m/44'/60'/1'/0/0" }),
    ).toEqual({
      network: 'ethereum',
      address: GAS_PAYER,
      path: "m/44'/60'/1'/0/0",
    });
    expect(checkFeePayer({ network: 'tron', mode: 'test', address: TRON, path: "m/44'/195'/1'/0/0" }).address).toBe(
      TRON,
    );
  });

  it('refuses another family, a broken checksum, a path that is not one, a key in either field', () => {
    expect(refusal({ network: 'litecoin', address: GAS_PAYER, path: "m/44'/60'/1'/0/0" })).toMatchObject({
      kind: 'FeePayerInvalid',
      message: expect.stringContaining('network:'),
    });
    // One letter's case changed: an EIP-55 checksum that no longer holds.
    const broken = GAS_PAYER.replace('E0F', 'e0F');
    expect(refusal({ network: 'ethereum', address: broken, path: "m/44'/60'/1'/0/0" }).message).toMatch(/^address:/);
    expect(refusal({ network: 'tron', address: TRON.slice(0, -1) + 'u', path: "m/44'/195'/1'/0/0" }).message).toMatch(
      /^address:/,
    );
    expect(refusal({ network: 'ethereum', address: GAS_PAYER, path: "m/44'/60'/x" }).message).toMatch(/^path:/);
    const phrase = refusal({ network: 'ethereum', address: GAS_PAYER, path: PHRASE });
    expect(phrase.kind).toBe('KeyMaterialRefused');
    expect(phrase.message).not.toContain('legal');
  });
});
