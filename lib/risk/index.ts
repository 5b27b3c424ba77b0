/**
 * Risk screening of incoming payments (orders with `checkRisks`). A provider may ask an outside
 * service, so `screen` may answer a promise: the caller screens each payment and hands the verdict
 * to the order lifecycle with the transfer, which keeps the state machine synchronous and pure.
 */

export interface RiskVerdict {
  flagged: boolean;
  /** Why it was flagged; becomes the order's message. */
  reason?: string;
}

export interface ScreenedTransfer {
  sender: string | null;
  currency: string;
  network?: string;
}

export interface RiskScreen {
  screen(transfer: ScreenedTransfer): RiskVerdict | Promise<RiskVerdict>;
}

const HEX_ADDRESS = /^0x[0-9a-f]+$/i;

/** Hex addresses differ only by their EIP-55 checksum casing; base58 and the like are case-sensitive. */
function normalizeAddress(address: string): string {
  const trimmed = address.trim();
  return HEX_ADDRESS.test(trimmed) ? trimmed.toLowerCase() : trimmed;
}

/** Flags payments whose sender is one of `addresses`; blank entries are skipped. */
export function denyListScreen(addresses: Iterable<string>): RiskScreen {
  const denied = new Set<string>();
  for (const address of addresses) {
    const normalized = normalizeAddress(address);
    if (normalized) denied.add(normalized);
  }
  return {
    screen: ({ sender }) =>
      sender !== null && denied.has(normalizeAddress(sender))
        ? { flagged: true, reason: `Sender ${sender.trim()} is on the deny list.` }
        : { flagged: false },
  };
}

export const noRiskScreen: RiskScreen = {
  screen: () => ({ flagged: false }),
};
