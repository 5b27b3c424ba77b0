/**
 * For an order made by an invoice's coin choice: the invoice's price beside the coin amount
 * ("Price: $73.50 = 73.5 USDT") and a "Change coin" link back to the invoice page. Drawn on the
 * server (no JavaScript of its own: the page's budget) and handed to PayLive as a slot, which
 * shows the link only while the live view's `invoice.canChangeCoin` holds (nothing sent yet, the
 * invoice still open): the `data-change-coin` attribute it sets on the `group` around the slot.
 */
import type { Language } from '@/lib/pay/i18n';
import type { Messages } from '@/lib/pay/messages';
import type { PublicOrderView } from '@/lib/pay/view';
import { amountText } from './ui';

interface Props {
  view: PublicOrderView;
  /** The invoice's price in the page's language ("$73.50"), formatted on the server. */
  price: string;
  /** The invoice page, in the page's language. */
  changeCoinHref: string;
  m: Pick<Messages, 'invoicePrice' | 'changeCoin' | 'separators'>;
  language: Language;
}

export function InvoicePrice({ view, price, changeCoinHref, m, language }: Props) {
  return (
    <div className="mt-3 flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1 text-sm">
      <p data-testid="invoice-price">
        {`${m.invoicePrice}${m.separators.label}`}
        <span dir="ltr" className="font-semibold">
          {price}
        </span>
        {' = '}
        {amountText(view.amount, view.currency, language)}
      </p>
      <a href={changeCoinHref} className="hidden font-medium underline group-data-[change-coin]:inline">
        {m.changeCoin}
      </a>
    </div>
  );
}
