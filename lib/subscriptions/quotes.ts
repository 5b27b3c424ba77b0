import 'server-only';
/**
 * Rates for a subscription's invoices, fetched before its row lock is taken. A subscription's
 * changes run under its row lock (./lifecycle), and an invoice priced in fiat needs the rate
 * sources (a network call that may take seconds); nobody may wait on them while holding a lock.
 * So a change that finds, under the lock, that it must make an invoice without a quote for it
 * throws QuoteNeeded: its transaction rolls back, `withInvoiceQuotes` fetches the quote with no
 * transaction open and runs the change again, which finds the quote this time.
 */
import { quoteLinkInvoice, type InvoiceQuote } from '../invoices';
import type { MakeInvoiceRequest, Mode } from '../protocol';

/** What a quote is for: the invoice's mode, price currency and coins offered (a plan's). */
export interface QuoteFor {
  mode: Mode;
  currency: string;
  currencies: MakeInvoiceRequest['currencies'];
}

const keyOf = (what: QuoteFor) => JSON.stringify([what.mode, what.currency, what.currencies ?? null]);

/** Thrown inside a transaction that needs a quote it was not given; `withInvoiceQuotes` answers it. */
export class QuoteNeeded extends Error {
  constructor(readonly what: QuoteFor) {
    super(`a ${what.mode} ${what.currency} quote is needed before the row lock`);
  }
}

/** The quotes fetched for one change, by what they are for. */
export class InvoiceQuotes {
  private readonly quotes = new Map<string, InvoiceQuote>();

  /** The quote fetched for `what`, or QuoteNeeded (never a network call: this runs under locks). */
  for(what: QuoteFor): InvoiceQuote {
    const quote = this.quotes.get(keyOf(what));
    if (!quote) throw new QuoteNeeded(what);
    return quote;
  }

  async fetch(what: QuoteFor): Promise<void> {
    this.quotes.set(keyOf(what), await quoteLinkInvoice(what.mode, what.currency, what.currencies));
  }
}

/**
 * Runs `change` (one transaction, which may lock subscriptions) with the quotes it asks for: a
 * change that needs one it lacks is rolled back, the quote fetched outside it, and run again. A
 * rate source that fails fails the change (RATE_UNAVAILABLE), having locked nothing meanwhile.
 */
export async function withInvoiceQuotes<T>(change: (quotes: InvoiceQuotes) => Promise<T>): Promise<T> {
  const quotes = new InvoiceQuotes();
  // One subscription's change makes at most one invoice; a second round covers a plan read anew.
  for (let round = 0; ; round++) {
    try {
      return await change(quotes);
    } catch (error) {
      if (!(error instanceof QuoteNeeded) || round >= 2) throw error;
      await quotes.fetch(error.what);
    }
  }
}
