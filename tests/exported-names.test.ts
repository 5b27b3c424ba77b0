/**
 * One name per thing (issue 31): no two folders of lib/ declare an exported function, class, type
 * or variable of the same name. A folder's index.ts passing on another folder's name is not
 * counted (it is the same thing); a name that must mean the same in two folders goes here, with why.
 */
import { expect, it } from 'vitest';
import { sharedExportedNames } from '../scripts/lib/exported-names.mjs';

const EVM_PLAN_SHAPE =
  "the EVM plan's wire shape (lib/protocol evm-plans.ts, zod) restated by the client-safe transaction code (lib/chains/evm/transactions types.ts), which may import nothing of lib/protocol; the compiler checks a parsed plan fits it where the signer hands it over";

/** Names two folders may both declare, and why. */
const ALLOWED: Record<string, string> = {
  EvmAuthorizationRequest: EVM_PLAN_SHAPE,
  EvmCollectionPlan: EVM_PLAN_SHAPE,
  EvmPlanItem: EVM_PLAN_SHAPE,
  EvmTransactionPurpose: EVM_PLAN_SHAPE,
  EvmUnsignedTransaction: EVM_PLAN_SHAPE,
};

it('no exported name of lib/ is declared in two folders', () => {
  const shared = Object.fromEntries([...sharedExportedNames()].filter(([name]) => !(name in ALLOWED)));
  expect(shared).toEqual({});
});
