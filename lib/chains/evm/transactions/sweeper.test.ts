import fs from 'node:fs';
import path from 'node:path';
import solc from 'solc';
import { describe, expect, it } from 'vitest';
import { SWEEPER_ABI, SWEEPER_CREATION_CODE, sweeperAddress } from './sweeper';

/** The settings sweeper.ts names: change both together, and the sweeper's address changes with them. */
function compile(): { abi: unknown[]; bytecode: string } {
  const source = fs.readFileSync(path.join(import.meta.dirname, 'Sweeper.sol'), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'Sweeper.sol': { content: source } },
    settings: {
      evmVersion: 'prague',
      optimizer: { enabled: true, runs: 200 },
      metadata: { bytecodeHash: 'none', appendCBOR: false },
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input)));
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error');
  if (errors.length) throw new Error(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n'));
  const contract = output.contracts['Sweeper.sol'].Sweeper;
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

describe('the sweeper contract', () => {
  const compiled = compile();

  it('is the committed creation code, compiled again from Sweeper.sol', () => {
    expect(solc.version()).toMatch(/^0\.8\.37\+/);
    expect(SWEEPER_CREATION_CODE).toBe(compiled.bytecode);
  });

  it('has the interface sweeper.ts declares', () => {
    const shape = (abi: readonly unknown[]) =>
      (abi as { type: string; name?: string; inputs?: { type: string }[] }[])
        .map((e) => `${e.type} ${e.name ?? ''}(${(e.inputs ?? []).map((i) => i.type).join(',')})`)
        .sort();
    expect(shape(SWEEPER_ABI)).toEqual(shape(compiled.abi));
  });

  it('lives at one CREATE2 address per treasury', () => {
    const a = sweeperAddress('0x1111111111111111111111111111111111111111');
    expect(sweeperAddress('0x1111111111111111111111111111111111111111')).toBe(a);
    expect(sweeperAddress('0x2222222222222222222222222222222222222222')).not.toBe(a);
  });
});
