import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import { QRCodeSVG } from 'qrcode.react';
import { z } from 'zod';
import { requirePage } from '@/app/dashboard/session';
import { Keypad } from '@/components/pos/keypad';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { ResumeSale, SaleWatch } from '@/components/pos/sale-watch';
import { getDatabase } from '@/lib/db';
import { isDomainErrorOf } from '@/lib/errors';
import { invoiceLink } from '@/lib/invoices';
import { getSale, posLanguage, posSettings, POS_TEXTS, salesSince, saleState } from '@/lib/links';
import { formatDecimal } from '@/lib/money';
import { LANGUAGE_HEADER } from '@/lib/pay/i18n';
import { startSaleAction, switchPosMode } from './actions';

export const metadata: Metadata = {
  title: 'Point of sale',
  manifest: '/dashboard/pos/manifest.webmanifest',
  robots: { index: false, follow: false },
};
export const viewport: Viewport = { themeColor: '#047857' };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };
const QUERY = z.object({
  sale: z.uuid().optional().catch(undefined),
  error: z.literal('invalid').optional().catch(undefined),
});

/**
 * The point of sale (`cashier` role, and owners and admins): a keypad in the merchant's
 * currency, the tips the merchant offers, "Charge"; then the sale's QR code full width for the
 * payer, its state live, and the cashier's own sales of the day. Outside the dashboard's frame: a
 * phone or tablet at the counter, one hand.
 */
export default async function PosPage({ searchParams }: Props) {
  const session = await requirePage('pos');
  const t = POS_TEXTS[posLanguage((await headers()).get(LANGUAGE_HEADER))];
  const lang = t === POS_TEXTS.ar ? 'ar' : 'en';
  const { sale: saleId, error } = QUERY.parse(await searchParams);
  const db = await getDatabase();
  const settings = await posSettings(db, session.merchantId);
  const money = (units: string, scale: number, currency: string) =>
    `${formatDecimal({ value: BigInt(units), scale })} ${currency}`;

  let sale = null;
  if (saleId) {
    try {
      sale = await getSale(db, session.userId, saleId);
    } catch (failure) {
      if (!isDomainErrorOf(failure, 'NotFound')) throw failure;
    }
  }
  const dayStart = new Date();
  dayStart.setUTCHours(0, 0, 0, 0);
  const sales = await salesSince(db, session.userId, dayStart);

  return (
    <main className="mx-auto w-full max-w-md px-4 py-4">
      {session.mode === 'test' && (
        <p
          className="mb-2 rounded bg-test-surface px-3 py-1 text-center text-sm font-bold text-test-ink"
          data-testid="test-banner"
        >
          TEST
        </p>
      )}
      <header className="flex items-center justify-between gap-2">
        <h1 className="text-xl font-semibold">{t.title}</h1>
        <a
          href={`/dashboard/pos?lang=${lang === 'ar' ? 'en' : 'ar'}`}
          className="text-sm underline"
          lang={lang === 'ar' ? 'en' : 'ar'}
        >
          {lang === 'ar' ? 'English' : 'العربية'}
        </a>
      </header>

      {sale ? (
        <section className="mt-4 space-y-4" aria-label={t.scanToPay} data-testid="sale">
          <p className="text-center text-4xl font-bold" dir="ltr" data-testid="sale-total">
            {money(sale.amount, sale.price_decimals, sale.currency)}
          </p>
          {saleState(sale.status) === 'waiting' && (
            <>
              <p className="text-center text-lg">{t.scanToPay}</p>
              <div className="mx-auto w-full rounded-lg bg-white p-4">
                <QRCodeSVG
                  value={invoiceLink(sale.id)}
                  size={320}
                  className="h-auto w-full"
                  title={t.scanToPay}
                  data-testid="sale-qr"
                />
              </div>
            </>
          )}
          <SaleWatch
            saleId={sale.id}
            initial={saleState(sale.status)}
            texts={{ waiting: t.waiting, paid: t.paid, failed: t.failed, sound: t.sound }}
          />
          <Button asChild variant="primary" size="lg" className="w-full">
            <a href={`/dashboard/pos?lang=${lang}`} data-testid="new-sale">
              {t.newSale}
            </a>
          </Button>
        </section>
      ) : (
        <form action={startSaleAction} className="mt-4 space-y-4">
          <ResumeSale lang={lang} />
          <input type="hidden" name="lang" value={lang} />
          {error && (
            <p role="alert" className="rounded-md bg-bad-surface px-3 py-2 text-bad-ink">
              {t.invalid}
            </p>
          )}
          <label className="block">
            <span className="text-sm font-medium">{`${t.amount} (${settings.currency})`}</span>
            <Input
              large
              id="pos-amount"
              name="amount"
              inputMode="decimal"
              pattern="[0-9]+([.][0-9]+)?"
              required
              autoComplete="off"
              dir="ltr"
              className="mt-1"
            />
          </label>
          <Keypad field="pos-amount" clear={t.clear} backspace={t.backspace} />
          <fieldset>
            <legend className="text-sm font-medium">{t.tip}</legend>
            <div className="mt-1 grid grid-cols-4 gap-2">
              {[0, ...settings.tips].map((tip) => (
                <label
                  key={tip}
                  className="flex cursor-pointer items-center justify-center gap-1 rounded-lg border border-line-strong py-3 has-[:checked]:border-good-line has-[:checked]:bg-good-surface"
                >
                  <input type="radio" name="tip" value={tip} defaultChecked={tip === 0} />
                  <span dir="ltr">{tip === 0 ? t.noTip : `${tip}%`}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" variant="primary" size="lg" className="w-full" data-testid="charge">
            {t.charge}
          </Button>
        </form>
      )}

      <form action={switchPosMode} className="mt-6 text-center">
        <input type="hidden" name="lang" value={lang} />
        <input type="hidden" name="mode" value={session.mode === 'test' ? 'live' : 'test'} />
        <Button type="submit" variant="text" size="inline" lang="en">
          {session.mode === 'test' ? 'Switch to live' : 'Switch to test'}
        </Button>
      </form>

      <section className="mt-8" aria-labelledby="sales-title">
        <h2 id="sales-title" className="text-lg font-semibold">
          {t.todaysSales}
        </h2>
        {sales.length === 0 ? (
          <p className="mt-2 text-sm">{t.noSales}</p>
        ) : (
          <table className="mt-2 w-full text-sm" data-testid="sales">
            <thead>
              <tr>
                <th scope="col" className="text-start">
                  {t.time}
                </th>
                <th scope="col" className="text-start">
                  {t.total}
                </th>
                <th scope="col" className="text-start">
                  {t.status}
                </th>
              </tr>
            </thead>
            <tbody>
              {sales.map((row) => (
                <tr key={row.id} className="border-t border-line">
                  <td className="py-1" dir="ltr">
                    {row.created_at.toISOString().slice(11, 16)}
                  </td>
                  <td className="py-1" dir="ltr">
                    {money(row.amount, row.price_decimals, row.currency)}
                  </td>
                  <td className="py-1">{t[saleState(row.status)]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </main>
  );
}
