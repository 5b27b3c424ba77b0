/**
 * The shape of an EVM collection plan as this client-safe folder reads and writes it. The wire
 * contract (lib/protocol evm-plans.ts, its zod schema) is the one the signer parses a plan with; this
 * folder imports nothing of lib/ beyond transaction code, so it states the shape again, and the
 * compiler checks that a parsed plan fits it wherever one is handed over (scripts/signer, the tests).
 */
export type EvmTransactionPurpose = 'sweep' | 'clear' | 'fund' | 'transfer';

export interface EvmAuthorizationRequest {
  address: string;
  path: string;
  chainId: number;
  contract: string;
  nonce: number;
}

export interface EvmUnsignedTransaction {
  purpose: EvmTransactionPurpose;
  from: string;
  path: string;
  chainId: number;
  nonce: number;
  to: string;
  toPath?: string;
  value: string;
  data: string;
  gas: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
  authorizations: EvmAuthorizationRequest[];
}

export interface EvmPlanItem {
  address: string;
  path: string;
  personal: boolean;
  method: 'sweep' | 'transfers';
  balances: { currency: string; amount: string }[];
}

export interface EvmCollectionPlan {
  planId: string;
  kind: 'collection';
  family: 'evm';
  mode: 'live' | 'test';
  network: string;
  chainId: number;
  status: 'prepared' | 'broadcast' | 'confirmed' | 'failed' | 'stale';
  treasury: string;
  sweeper: string;
  gasPayer: { address: string; path: string };
  tokens: { ticker: string; contract: string; decimals: number }[];
  items: EvmPlanItem[];
  transactions: EvmUnsignedTransaction[];
  maxGasPayerSpend: string;
  createdAt: string;
}

/** An EVM refund plan's one transaction, from the treasury (lib/protocol `evmRefundTransactionSchema`, docs/decisions/112). */
export interface EvmRefundTransaction {
  from: string;
  chainId: number;
  nonce: number;
  to: string;
  value: string;
  data: string;
  gas: string;
  maxFeePerGas: string;
  maxPriorityFeePerGas: string;
}
