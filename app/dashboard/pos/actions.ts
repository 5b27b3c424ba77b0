'use server';
/**
 * The point of sale's one action: a sale. Checks the session and the `pos` permission every time
 * (requireAction), parses the form with zod, makes the sale (lib/links `startSale`) and opens it
 * (`?sale=`). A refusal comes back as `?error=`, never a server error. Works without JavaScript.
 */
import { redirect } from 'next/navigation';
import { z } from 'zod';
import { requireAction } from '@/app/dashboard/session';
import { getDatabase } from '@/lib/db';
import { isDomainError } from '@/lib/errors';
import { startSale } from '@/lib/links';
import { MODE_VALUES, decimalString } from '@/lib/protocol';
import { setSessionMode } from '@/lib/users';
import { postedForm } from '@/lib/security';

const SALE_FORM = z.object({
  amount: z.string().trim().max(40).pipe(decimalString),
  tip: z
    .string()
    .regex(/^\d{1,2}$/)
    .transform(Number),
  lang: z.enum(['en', 'ar']).catch('en'),
});

export async function startSaleAction(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('pos');
  const parsed = SALE_FORM.safeParse({
    amount: form.get('amount'),
    tip: form.get('tip') ?? '0',
    lang: form.get('lang'),
  });
  const lang = parsed.success ? parsed.data.lang : 'en';
  if (!parsed.success) redirect(`/dashboard/pos?error=invalid&lang=${lang}`);
  let saleId: string;
  try {
    const sale = await startSale(await getDatabase(), session, {
      amount: parsed.data.amount,
      tipPercent: parsed.data.tip,
    });
    saleId = sale.id;
  } catch (error) {
    if (isDomainError(error)) redirect(`/dashboard/pos?error=invalid&lang=${lang}`);
    throw error;
  }
  redirect(`/dashboard/pos?sale=${saleId}&lang=${lang}`);
}

const MODE_FORM = z.object({ mode: z.enum(MODE_VALUES), lang: z.enum(['en', 'ar']).catch('en') });

/** The point of sale's test/live switch (a cashier has no other page to switch on); kept in the session. */
export async function switchPosMode(posted: FormData): Promise<void> {
  const form = postedForm(posted);
  const session = await requireAction('pos');
  const parsed = MODE_FORM.safeParse({ mode: form.get('mode'), lang: form.get('lang') });
  if (parsed.success) await setSessionMode(await getDatabase(), session, parsed.data.mode);
  redirect(`/dashboard/pos?lang=${parsed.success ? parsed.data.lang : 'en'}`);
}
