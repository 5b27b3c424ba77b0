/**
 * The texts of the receipt and invoice documents (the receipt page and both PDFs) that the payment
 * and invoice pages do not already have, per language of those pages. Labels the pages share
 * (order reference, description, total, received, transaction, price; the invoice's title
 * and states) come from lib/pay/messages,
 * so a receipt and its payment page never name a thing differently. Held to the glossary by
 * lib/pay/i18n.test.ts, as every `*messages.ts` table under lib/.
 */
import type { Language } from '../pay/i18n';

export interface ReceiptMessages {
  /** The receipt's heading, and the PDF's title: `{merchant}` is the merchant's name. */
  receiptTitle: string;
  /** When the order was paid (its final, successful state). */
  paidOn: string;
  /** The invoice's exchange rate: what one coin cost in the invoice's currency. */
  rate: string;
  /** The link to the PDF of the page's document. */
  downloadPdf: string;
  /** The link from the paid screen to its receipt. */
  viewReceipt: string;
  /** The invoice's deadline. */
  payBy: string;
  /** The invoice PDF's link to the invoice page. */
  payOnline: string;
  /** The invoice's id, as the order's is the order reference. */
  invoiceReference: string;
}

export const RECEIPT_MESSAGES: Record<Language, ReceiptMessages> = {
  en: {
    receiptTitle: 'Receipt from {merchant}',
    paidOn: 'Paid on',
    rate: 'Exchange rate',
    downloadPdf: 'Download PDF',
    viewReceipt: 'View receipt',
    payBy: 'Pay by',
    payOnline: 'Pay online',
    invoiceReference: 'Invoice reference',
  },
  es: {
    receiptTitle: 'Recibo de {merchant}',
    paidOn: 'Pagado el',
    rate: 'Tipo de cambio',
    downloadPdf: 'Descargar PDF',
    viewReceipt: 'Ver recibo',
    payBy: 'Pagar antes del',
    payOnline: 'Pagar en línea',
    invoiceReference: 'Referencia de la factura',
  },
  ar: {
    receiptTitle: 'إيصال من {merchant}',
    paidOn: 'تاريخ الدفع',
    rate: 'سعر الصرف',
    downloadPdf: 'تنزيل ملف PDF',
    viewReceipt: 'اعرض الإيصال',
    payBy: 'ادفع قبل',
    payOnline: 'ادفع عبر الإنترنت',
    invoiceReference: 'مرجع الفاتورة',
  },
  pt: {
    receiptTitle: 'Recibo de {merchant}',
    paidOn: 'Pago em',
    rate: 'Taxa de câmbio',
    downloadPdf: 'Baixar PDF',
    viewReceipt: 'Ver recibo',
    payBy: 'Pagar até',
    payOnline: 'Pagar on-line',
    invoiceReference: 'Referência da fatura',
  },
  fr: {
    receiptTitle: 'Reçu de {merchant}',
    paidOn: 'Payé le',
    rate: 'Taux de change',
    downloadPdf: 'Télécharger le PDF',
    viewReceipt: 'Voir le reçu',
    payBy: 'À payer avant le',
    payOnline: 'Payer en ligne',
    invoiceReference: 'Référence de la facture',
  },
  de: {
    receiptTitle: 'Beleg von {merchant}',
    paidOn: 'Bezahlt am',
    rate: 'Wechselkurs',
    downloadPdf: 'PDF herunterladen',
    viewReceipt: 'Beleg ansehen',
    payBy: 'Zahlbar bis',
    payOnline: 'Online bezahlen',
    invoiceReference: 'Rechnungsnummer',
  },
  ru: {
    receiptTitle: 'Квитанция от {merchant}',
    paidOn: 'Дата оплаты',
    rate: 'Курс обмена',
    downloadPdf: 'Скачать PDF',
    viewReceipt: 'Открыть квитанцию',
    payBy: 'Оплатить до',
    payOnline: 'Оплатить онлайн',
    invoiceReference: 'Номер счёта',
  },
  zh: {
    receiptTitle: '{merchant} 的收据',
    paidOn: '付款时间',
    rate: '汇率',
    downloadPdf: '下载 PDF',
    viewReceipt: '查看收据',
    payBy: '付款截止',
    payOnline: '在线付款',
    invoiceReference: '账单编号',
  },
  ja: {
    receiptTitle: '{merchant} の領収書',
    paidOn: '支払日時',
    rate: '為替レート',
    downloadPdf: 'PDF をダウンロード',
    viewReceipt: '領収書を表示',
    payBy: '支払期限',
    payOnline: 'オンラインで支払う',
    invoiceReference: '請求書番号',
  },
  it: {
    receiptTitle: 'Ricevuta di {merchant}',
    paidOn: 'Pagato il',
    rate: 'Tasso di cambio',
    downloadPdf: 'Scarica il PDF',
    viewReceipt: 'Vedi la ricevuta',
    payBy: 'Da pagare entro il',
    payOnline: 'Paga online',
    invoiceReference: 'Riferimento della fattura',
  },
  tr: {
    receiptTitle: '{merchant} makbuzu',
    paidOn: 'Ödeme tarihi',
    rate: 'Döviz kuru',
    downloadPdf: 'PDF indir',
    viewReceipt: 'Makbuzu görüntüle',
    payBy: 'Son ödeme tarihi',
    payOnline: 'Çevrimiçi öde',
    invoiceReference: 'Fatura numarası',
  },
  uk: {
    receiptTitle: 'Квитанція від {merchant}',
    paidOn: 'Дата оплати',
    rate: 'Курс обміну',
    downloadPdf: 'Завантажити PDF',
    viewReceipt: 'Відкрити квитанцію',
    payBy: 'Сплатити до',
    payOnline: 'Сплатити онлайн',
    invoiceReference: 'Номер рахунку',
  },
  hi: {
    receiptTitle: '{merchant} की रसीद',
    paidOn: 'भुगतान की तारीख',
    rate: 'विनिमय दर',
    downloadPdf: 'PDF डाउनलोड करें',
    viewReceipt: 'रसीद देखें',
    payBy: 'भुगतान की अंतिम तारीख',
    payOnline: 'ऑनलाइन भुगतान करें',
    invoiceReference: 'बिल संख्या',
  },
  vi: {
    receiptTitle: 'Biên nhận từ {merchant}',
    paidOn: 'Thanh toán lúc',
    rate: 'Tỷ giá',
    downloadPdf: 'Tải PDF',
    viewReceipt: 'Xem biên nhận',
    payBy: 'Hạn thanh toán',
    payOnline: 'Thanh toán trực tuyến',
    invoiceReference: 'Mã hóa đơn',
  },
  id: {
    receiptTitle: 'Tanda terima dari {merchant}',
    paidOn: 'Dibayar pada',
    rate: 'Kurs',
    downloadPdf: 'Unduh PDF',
    viewReceipt: 'Lihat tanda terima',
    payBy: 'Bayar sebelum',
    payOnline: 'Bayar secara online',
    invoiceReference: 'Nomor tagihan',
  },
  ur: {
    receiptTitle: '{merchant} کی رسید',
    paidOn: 'ادائیگی کی تاریخ',
    rate: 'شرح تبادلہ',
    downloadPdf: 'PDF ڈاؤن لوڈ کریں',
    viewReceipt: 'رسید دیکھیں',
    payBy: 'ادائیگی کی آخری تاریخ',
    payOnline: 'آن لائن ادائیگی کریں',
    invoiceReference: 'بل نمبر',
  },
  'zh-Hant': {
    receiptTitle: '{merchant} 的收據',
    paidOn: '付款時間',
    rate: '匯率',
    downloadPdf: '下載 PDF',
    viewReceipt: '查看收據',
    payBy: '付款期限',
    payOnline: '線上付款',
    invoiceReference: '帳單編號',
  },
  ko: {
    receiptTitle: '{merchant} 영수증',
    paidOn: '결제 일시',
    rate: '환율',
    downloadPdf: 'PDF 다운로드',
    viewReceipt: '영수증 보기',
    payBy: '결제 기한',
    payOnline: '온라인으로 결제',
    invoiceReference: '청구서 번호',
  },
};
