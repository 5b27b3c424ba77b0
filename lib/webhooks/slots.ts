/**
 * How many webhook attempts this process may start now, and for which merchants: two limits
 * (WEBHOOK_CONCURRENCY in all, WEBHOOK_MERCHANT_CONCURRENCY per merchant) and the rule that a busy
 * merchant is claimed for again only once half its slots are free (docs/decisions/040). Plain
 * counting, no clock and no database, so the rule is unit-tested (slots.test.ts) apart from the
 * claim loop that follows it (dispatcher.ts).
 */

/**
 * This process's attempts in flight, in all (at most WEBHOOK_CONCURRENCY) and per merchant (at
 * most WEBHOOK_MERCHANT_CONCURRENCY, which `claimDue` enforces from `perMerchant`).
 */
export class Slots {
  /** Attempts in flight per merchant; a merchant with none has no entry. */
  private readonly perMerchant = new Map<string, number>();
  private inFlight = 0;
  /** Free slots a merchant with attempts in flight needs before its rows are claimed again. */
  private readonly batch: number;

  constructor(
    private readonly size: number,
    private readonly merchantSize: number,
  ) {
    this.batch = Math.ceil(merchantSize / 2);
  }

  free(): number {
    return this.size - this.inFlight;
  }

  idle(): boolean {
    return this.inFlight === 0;
  }

  /**
   * Attempts in flight per merchant as a claim counts them (`claimDue`'s `busy`): a merchant with
   * attempts in flight but fewer than half its slots free counts as full. Its rows are then claimed
   * several at a time, and its attempts, started together, end and are recorded together. Claiming
   * for each slot as it frees settles into one claim (two statements) and one record per webhook:
   * on the embedded database, whose one connection and one thread the watcher shares, that was
   * most of the cost of a webhook, and 50 status changes a second queued them for seconds
   * (docs/decisions/040). A merchant with nothing in flight is claimed for at once, as before.
   */
  forClaim(): Map<string, number> {
    const busy = new Map<string, number>();
    for (const [merchant, n] of this.perMerchant) busy.set(merchant, this.countsFull(n) ? this.merchantSize : n);
    return busy;
  }

  take(merchantId: string): void {
    this.inFlight++;
    this.perMerchant.set(merchantId, (this.perMerchant.get(merchantId) ?? 0) + 1);
  }

  /** Frees a slot; answers whether that made room for a claim: the first free slot, or the merchant's rows claimable again. */
  release(merchantId: string): boolean {
    const wasFull = this.inFlight === this.size || this.countsFull(this.perMerchant.get(merchantId)!);
    this.inFlight--;
    const n = this.perMerchant.get(merchantId)! - 1;
    if (n === 0) this.perMerchant.delete(merchantId);
    else this.perMerchant.set(merchantId, n);
    return wasFull && !(this.inFlight === this.size || this.countsFull(n));
  }

  private countsFull(inFlight: number): boolean {
    return inFlight > 0 && this.merchantSize - inFlight < this.batch;
  }
}
