/**
 * The point of sale's texts, for the cashier: English and Arabic (the dashboard is English-only;
 * the point of sale faces a counter, so it has the payer pages' right-to-left language too). Not a
 * payer-facing `*messages.ts` table: those have all eighteen languages. Shared with the browser.
 */
export const POS_LANGUAGES = ['en', 'ar'] as const;
export type PosLanguage = (typeof POS_LANGUAGES)[number];

export interface PosTexts {
  title: string;
  amount: string;
  tip: string;
  noTip: string;
  charge: string;
  clear: string;
  backspace: string;
  scanToPay: string;
  waiting: string;
  paid: string;
  failed: string;
  newSale: string;
  sound: string;
  todaysSales: string;
  noSales: string;
  total: string;
  time: string;
  status: string;
  invalid: string;
}

export const POS_TEXTS: Record<PosLanguage, PosTexts> = {
  en: {
    title: 'Point of sale',
    amount: 'Amount',
    tip: 'Tip',
    noTip: 'No tip',
    charge: 'Charge',
    clear: 'Clear',
    backspace: 'Delete last digit',
    scanToPay: 'Scan to pay',
    waiting: 'Waiting for payment',
    paid: 'Paid',
    failed: 'Not paid',
    newSale: 'New sale',
    sound: 'Sound when paid',
    todaysSales: "Today's sales",
    noSales: 'No sales today yet.',
    total: 'Total',
    time: 'Time',
    status: 'Status',
    invalid: 'Enter an amount greater than zero.',
  },
  ar: {
    title: 'نقطة البيع',
    amount: 'المبلغ',
    tip: 'الإكرامية',
    noTip: 'بدون إكرامية',
    charge: 'تحصيل',
    clear: 'مسح',
    backspace: 'حذف آخر رقم',
    scanToPay: 'امسح للدفع',
    waiting: 'بانتظار الدفع',
    paid: 'تم الدفع',
    failed: 'لم يتم الدفع',
    newSale: 'عملية بيع جديدة',
    sound: 'صوت عند الدفع',
    todaysSales: 'مبيعات اليوم',
    noSales: 'لا توجد مبيعات اليوم بعد.',
    total: 'الإجمالي',
    time: 'الوقت',
    status: 'الحالة',
    invalid: 'أدخل مبلغًا أكبر من صفر.',
  },
};

export function posLanguage(value: string | null | undefined): PosLanguage {
  return value === 'ar' ? 'ar' : 'en';
}
