/**
 * The texts of the payment page (MESSAGES) and of the invoice page (INVOICE_MESSAGES), per language. The server page picks one language and passes that
 * one object to the browser as props: no other language reaches the client bundle.
 * Placeholders are `{name}` (see ./format `interpolate`). Amounts, addresses, transaction ids and
 * countdown digits are never translated: they are inserted as they are, left to right.
 */
import type { InvoiceScreen } from '../invoices/view';
import type { Language } from './i18n';
import type { Screen } from './view';

export interface Messages {
  pageTitle: string;
  payTo: string;
  testMode: string;
  testModeNote: string;
  language: string;
  sendExactly: string;
  networkWarning: string;
  amount: string;
  address: string;
  tag: string;
  tagWarningTitle: string;
  tagWarning: string;
  qrChoice: string;
  qrWithAmount: string;
  qrAddressOnly: string;
  qrWithAmountAlt: string;
  qrAddressOnlyAlt: string;
  qrAddressOnlyNote: string;
  openWallet: string;
  copy: string;
  copied: string;
  copyAmount: string;
  copyAddress: string;
  copyTag: string;
  description: string;
  orderTotal: string;
  received: string;
  remaining: string;
  timeLeft: string;
  expiringSoon: string;
  timeUp: string;
  confirmations: string;
  payments: string;
  transaction: string;
  paymentStatus: Record<'detected' | 'confirmed' | 'reversed' | 'rejected', string>;
  otherTransfers: string;
  otherTransfersNote: string;
  lateLabel: string;
  returnToStore: string;
  redirectIn: string;
  stayOnPage: string;
  redirectCancelled: string;
  reconnecting: string;
  simulateTitle: string;
  simulateNote: string;
  simulateFull: string;
  simulatePartial: string;
  simulateOver: string;
  simulateSent: string;
  simulateFailed: string;
  notFoundTitle: string;
  notFoundBody: string;
  /** An invoice's order: the invoice's price beside the coin amount, and the way back to choose another coin. */
  invoicePrice: string;
  changeCoin: string;
  screens: Record<Screen, { title: string; body: string }>;
}

const en: Messages = {
  pageTitle: 'Pay {merchant}',
  payTo: 'Payment to {merchant}',
  testMode: 'TEST MODE',
  testModeNote: 'This is a test order: no real funds move. Use “Simulate payment” below.',
  language: 'Language',
  sendExactly: 'Send exactly',
  networkWarning: 'Send {currency} on {network} only. Funds sent on another network may be lost.',
  amount: 'Amount',
  address: 'Address',
  tag: 'Destination tag',
  tagWarningTitle: 'The destination tag is required',
  tagWarning: 'Enter this tag in your wallet. Without it your payment cannot be matched to this order and may be lost.',
  qrChoice: 'QR code content',
  qrWithAmount: 'With amount',
  qrAddressOnly: 'Address only',
  qrWithAmountAlt: 'QR code: wallet link for this payment',
  qrAddressOnlyAlt: 'QR code: the address only',
  qrAddressOnlyNote: 'For wallets that cannot read payment links: enter the amount yourself.',
  openWallet: 'Open in wallet',
  copy: 'Copy',
  copied: 'Copied',
  copyAmount: 'Copy amount',
  copyAddress: 'Copy address',
  copyTag: 'Copy destination tag',
  description: 'Order',
  orderTotal: 'Order total',
  received: 'Received',
  remaining: 'Remaining',
  timeLeft: 'Time left',
  expiringSoon: 'Expiring soon',
  timeUp: 'Time is up',
  confirmations: '{k} of {n} confirmations',
  payments: 'Payments',
  transaction: 'Transaction',
  paymentStatus: { detected: 'Confirming', confirmed: 'Confirmed', reversed: 'Reversed', rejected: 'Rejected' },
  otherTransfers: 'Other transfers to this address',
  otherTransfersNote: 'These did not count towards the order. Contact the merchant about them.',
  lateLabel: 'after the deadline',
  returnToStore: 'Return to store',
  redirectIn: 'Returning to the store in {s} s.',
  stayOnPage: 'Stay on this page',
  redirectCancelled: 'You will stay on this page.',
  reconnecting: 'Reconnecting… The status shown may be out of date.',
  simulateTitle: 'Simulate payment',
  simulateNote: 'Test mode only: sends a payment on the sandbox ledger.',
  simulateFull: 'Full',
  simulatePartial: 'Partial',
  simulateOver: 'Over',
  simulateSent: 'Sent: {tx}',
  simulateFailed: 'The simulated payment failed: {error}',
  notFoundTitle: 'Order not found',
  notFoundBody: 'There is no payment order at this address. Check the link the store gave you.',
  invoicePrice: 'Price',
  changeCoin: 'Change coin',
  screens: {
    awaiting: { title: 'Awaiting payment', body: 'Send the amount below to the address below. This page updates by itself.' },
    detected: { title: 'Payment detected', body: 'Your payment is on its way and waiting for network confirmations.' },
    'partially-paid': { title: 'Partially paid', body: 'Part of the amount has arrived. Please send the remaining amount.' },
    paid: { title: 'Paid', body: 'Thank you: the payment is complete.' },
    overpaid: { title: 'Paid', body: 'Thank you: the payment is complete. You sent more than the amount; contact the merchant about the difference.' },
    expired: { title: 'Expired', body: 'This order expired before a payment arrived. Do not send funds to this address.' },
    underpaid: { title: 'Underpaid', body: 'The order expired with less than the amount received. Contact the merchant.' },
    'paid-late': { title: 'Paid late', body: 'A payment arrived after the order expired. Contact the merchant to resolve it.' },
    error: { title: 'Payment problem', body: 'There was a problem with this payment. Contact the merchant.' },
  },
};

const es: Messages = {
  pageTitle: 'Pagar a {merchant}',
  payTo: 'Pago a {merchant}',
  testMode: 'MODO DE PRUEBA',
  testModeNote: 'Este es un pedido de prueba: no se mueven fondos reales. Usa «Simular pago» más abajo.',
  language: 'Idioma',
  sendExactly: 'Envía exactamente',
  networkWarning: 'Envía {currency} solo en {network}. Los fondos enviados en otra red pueden perderse.',
  amount: 'Importe',
  address: 'Dirección',
  tag: 'Etiqueta de destino',
  tagWarningTitle: 'La etiqueta de destino es obligatoria',
  tagWarning: 'Introduce esta etiqueta en tu monedero. Sin ella tu pago no se puede asociar a este pedido y podría perderse.',
  qrChoice: 'Contenido del código QR',
  qrWithAmount: 'Con importe',
  qrAddressOnly: 'Solo dirección',
  qrWithAmountAlt: 'Código QR: enlace de monedero para este pago',
  qrAddressOnlyAlt: 'Código QR: solo la dirección',
  qrAddressOnlyNote: 'Para monederos que no leen enlaces de pago: introduce el importe tú mismo.',
  openWallet: 'Abrir en el monedero',
  copy: 'Copiar',
  copied: 'Copiado',
  copyAmount: 'Copiar importe',
  copyAddress: 'Copiar dirección',
  copyTag: 'Copiar etiqueta de destino',
  description: 'Pedido',
  orderTotal: 'Total del pedido',
  received: 'Recibido',
  remaining: 'Pendiente',
  timeLeft: 'Tiempo restante',
  expiringSoon: 'Caduca pronto',
  timeUp: 'Se acabó el tiempo',
  confirmations: '{k} de {n} confirmaciones',
  payments: 'Pagos',
  transaction: 'Transacción',
  paymentStatus: { detected: 'Confirmando', confirmed: 'Confirmado', reversed: 'Revertido', rejected: 'Rechazado' },
  otherTransfers: 'Otras transferencias a esta dirección',
  otherTransfersNote: 'No cuentan para el pedido. Contacta con el comercio sobre ellas.',
  lateLabel: 'después del plazo',
  returnToStore: 'Volver a la tienda',
  redirectIn: 'Volviendo a la tienda en {s} s.',
  stayOnPage: 'Quedarme en esta página',
  redirectCancelled: 'Te quedarás en esta página.',
  reconnecting: 'Reconectando… El estado mostrado puede no estar actualizado.',
  simulateTitle: 'Simular pago',
  simulateNote: 'Solo en modo de prueba: envía un pago en el libro de pruebas.',
  simulateFull: 'Completo',
  simulatePartial: 'Parcial',
  simulateOver: 'De más',
  simulateSent: 'Enviado: {tx}',
  simulateFailed: 'El pago simulado falló: {error}',
  notFoundTitle: 'Pedido no encontrado',
  notFoundBody: 'No hay ningún pedido de pago en esta dirección. Revisa el enlace que te dio la tienda.',
  invoicePrice: 'Precio',
  changeCoin: 'Cambiar de moneda',
  screens: {
    awaiting: { title: 'Esperando el pago', body: 'Envía el importe indicado a la dirección indicada. Esta página se actualiza sola.' },
    detected: { title: 'Pago detectado', body: 'Tu pago está en camino y espera las confirmaciones de la red.' },
    'partially-paid': { title: 'Pagado en parte', body: 'Ha llegado parte del importe. Envía el importe pendiente.' },
    paid: { title: 'Pagado', body: 'Gracias: el pago se ha completado.' },
    overpaid: { title: 'Pagado', body: 'Gracias: el pago se ha completado. Enviaste más del importe; contacta con el comercio por la diferencia.' },
    expired: { title: 'Caducado', body: 'Este pedido caducó antes de recibir un pago. No envíes fondos a esta dirección.' },
    underpaid: { title: 'Pago insuficiente', body: 'El pedido caducó sin recibir el importe completo. Contacta con el comercio.' },
    'paid-late': { title: 'Pagado tarde', body: 'Llegó un pago después de que caducara el pedido. Contacta con el comercio para resolverlo.' },
    error: { title: 'Problema con el pago', body: 'Hubo un problema con este pago. Contacta con el comercio.' },
  },
};

const ar: Messages = {
  pageTitle: 'الدفع إلى {merchant}',
  payTo: 'دفعة إلى {merchant}',
  testMode: 'وضع الاختبار',
  testModeNote: 'هذا طلب تجريبي: لا تُنقل أموال حقيقية. استخدم «محاكاة الدفع» أدناه.',
  language: 'اللغة',
  sendExactly: 'أرسل بالضبط',
  networkWarning: 'أرسل {currency} على شبكة {network} فقط. قد تضيع الأموال المرسلة على شبكة أخرى.',
  amount: 'المبلغ',
  address: 'العنوان',
  tag: 'وسم الوجهة',
  tagWarningTitle: 'وسم الوجهة مطلوب',
  tagWarning: 'أدخل هذا الوسم في محفظتك. بدونه لا يمكن ربط دفعتك بهذا الطلب وقد تضيع.',
  qrChoice: 'محتوى رمز QR',
  qrWithAmount: 'مع المبلغ',
  qrAddressOnly: 'العنوان فقط',
  qrWithAmountAlt: 'رمز QR: رابط المحفظة لهذه الدفعة',
  qrAddressOnlyAlt: 'رمز QR: العنوان فقط',
  qrAddressOnlyNote: 'للمحافظ التي لا تقرأ روابط الدفع: أدخل المبلغ بنفسك.',
  openWallet: 'افتح في المحفظة',
  copy: 'نسخ',
  copied: 'تم النسخ',
  copyAmount: 'نسخ المبلغ',
  copyAddress: 'نسخ العنوان',
  copyTag: 'نسخ وسم الوجهة',
  description: 'الطلب',
  orderTotal: 'إجمالي الطلب',
  received: 'المستلم',
  remaining: 'المتبقي',
  timeLeft: 'الوقت المتبقي',
  expiringSoon: 'ينتهي قريبًا',
  timeUp: 'انتهى الوقت',
  confirmations: '{k} من {n} تأكيدات',
  payments: 'الدفعات',
  transaction: 'المعاملة',
  paymentStatus: { detected: 'قيد التأكيد', confirmed: 'مؤكدة', reversed: 'معكوسة', rejected: 'مرفوضة' },
  otherTransfers: 'تحويلات أخرى إلى هذا العنوان',
  otherTransfersNote: 'لم تُحتسب هذه للطلب. تواصل مع التاجر بشأنها.',
  lateLabel: 'بعد انتهاء المهلة',
  returnToStore: 'العودة إلى المتجر',
  redirectIn: 'العودة إلى المتجر خلال {s} ث.',
  stayOnPage: 'البقاء في هذه الصفحة',
  redirectCancelled: 'ستبقى في هذه الصفحة.',
  reconnecting: 'جارٍ إعادة الاتصال… قد لا تكون الحالة المعروضة محدّثة.',
  simulateTitle: 'محاكاة الدفع',
  simulateNote: 'في وضع الاختبار فقط: يرسل دفعة على دفتر الاختبار.',
  simulateFull: 'كامل',
  simulatePartial: 'جزئي',
  simulateOver: 'زائد',
  simulateSent: 'أُرسلت: {tx}',
  simulateFailed: 'فشلت الدفعة التجريبية: {error}',
  notFoundTitle: 'الطلب غير موجود',
  notFoundBody: 'لا يوجد طلب دفع على هذا العنوان. تحقق من الرابط الذي أعطاك إياه المتجر.',
  invoicePrice: 'السعر',
  changeCoin: 'تغيير العملة',
  screens: {
    awaiting: { title: 'بانتظار الدفع', body: 'أرسل المبلغ أدناه إلى العنوان أدناه. تتحدث هذه الصفحة تلقائيًا.' },
    detected: { title: 'تم رصد الدفعة', body: 'دفعتك في الطريق وتنتظر تأكيدات الشبكة.' },
    'partially-paid': { title: 'مدفوع جزئيًا', body: 'وصل جزء من المبلغ. يرجى إرسال المبلغ المتبقي.' },
    paid: { title: 'تم الدفع', body: 'شكرًا لك: اكتملت الدفعة.' },
    overpaid: { title: 'تم الدفع', body: 'شكرًا لك: اكتملت الدفعة. أرسلت أكثر من المبلغ؛ تواصل مع التاجر بشأن الفرق.' },
    expired: { title: 'منتهي الصلاحية', body: 'انتهت صلاحية هذا الطلب قبل وصول أي دفعة. لا ترسل أموالًا إلى هذا العنوان.' },
    underpaid: { title: 'دفع ناقص', body: 'انتهت صلاحية الطلب مع استلام أقل من المبلغ. تواصل مع التاجر.' },
    'paid-late': { title: 'دُفع متأخرًا', body: 'وصلت دفعة بعد انتهاء صلاحية الطلب. تواصل مع التاجر لحل الأمر.' },
    error: { title: 'مشكلة في الدفع', body: 'حدثت مشكلة في هذه الدفعة. تواصل مع التاجر.' },
  },
};

export const MESSAGES: Record<Language, Messages> = { en, es, ar };

/**
 * Why a coin choice was refused, as the invoice page's `?error=` says it (app/invoice's action
 * maps each domain error to one): the invoice no longer takes a choice, no fresh price for the
 * coin, a coin the invoice does not offer, the gateway busy (no address free, the database
 * overloaded), a form that names no coin.
 */
export const INVOICE_CHOICE_ERRORS = ['closed', 'rate', 'not-offered', 'busy', 'invalid'] as const;
export type InvoiceChoiceError = (typeof INVOICE_CHOICE_ERRORS)[number];

export function isInvoiceChoiceError(value: unknown): value is InvoiceChoiceError {
  return typeof value === 'string' && (INVOICE_CHOICE_ERRORS as readonly string[]).includes(value);
}

/**
 * The invoice page's texts (`/invoice/{id}`, the coin choice), per language. Apart from the
 * payment page's so that neither page sends the other's texts to the browser; shared words (the
 * countdown, "Return to store", the language links) come from MESSAGES.
 */
export interface InvoiceMessages {
  pageTitle: string;
  testModeNote: string;
  price: string;
  coins: string;
  searchLabel: string;
  searchHint: string;
  searchCount: string;
  searchNone: string;
  priceUnavailable: string;
  chosen: string;
  continueWith: string;
  chosenNote: string;
  chooseAnother: string;
  choosing: string;
  continueToPayment: string;
  paymentDetails: string;
  errors: Record<InvoiceChoiceError, string>;
  notFoundTitle: string;
  notFoundBody: string;
  goBack: string;
  home: string;
  screens: Record<InvoiceScreen, { title: string; body: string }>;
}

const invoiceEn: InvoiceMessages = {
  pageTitle: 'Invoice from {merchant}',
  testModeNote: 'This is a test invoice: no real funds move.',
  price: 'Price',
  coins: 'Coins you can pay with',
  searchLabel: 'Search coins',
  searchHint: 'Ticker, name or network',
  searchCount: 'Coins shown: {shown} of {total}',
  searchNone: 'No coin matches your search.',
  priceUnavailable: 'price unavailable',
  chosen: 'Your current choice: {currency} on {network}.',
  continueWith: 'Continue with {currency} on {network}',
  chosenNote: 'Choosing another coin replaces this payment request: do not send funds to its address after that.',
  chooseAnother: 'Or choose another coin',
  choosing: 'Preparing your payment…',
  continueToPayment: 'Continue to payment',
  paymentDetails: 'See payment details',
  errors: {
    closed: 'This invoice no longer accepts a coin choice: it is paid, closed or out of time.',
    rate: 'There is no fresh price for that coin right now. Try again in a minute, or choose another coin.',
    'not-offered': 'That coin is not offered for this invoice. Choose one from the list.',
    busy: 'The gateway is busy right now. Try again in a moment.',
    invalid: 'Choose a coin from the list.',
  },
  notFoundTitle: 'Invoice not found',
  notFoundBody: 'There is no invoice at this address. Check the link the store gave you.',
  goBack: 'Go back',
  home: 'Go to the home page',
  screens: {
    choose: { title: 'Choose how to pay', body: 'Pick a coin and its network. The amount to send is fixed when you choose.' },
    pay: { title: 'Payment in progress', body: 'A payment for this invoice has been seen. Follow it on the payment page.' },
    paid: { title: 'Paid', body: 'Thank you: this invoice is paid.' },
    expired: { title: 'This invoice has expired', body: 'Its time to pay ran out. Do not send funds for it; ask the store for a new invoice.' },
    closed: {
      title: 'The payment did not complete',
      body: 'This invoice is closed without a complete payment. The payment page shows what was received; contact the merchant.',
    },
  },
};

const invoiceEs: InvoiceMessages = {
  pageTitle: 'Factura de {merchant}',
  testModeNote: 'Esta es una factura de prueba: no se mueven fondos reales.',
  price: 'Precio',
  coins: 'Monedas con las que puedes pagar',
  searchLabel: 'Buscar monedas',
  searchHint: 'Símbolo, nombre o red',
  searchCount: 'Monedas mostradas: {shown} de {total}',
  searchNone: 'Ninguna moneda coincide con tu búsqueda.',
  priceUnavailable: 'precio no disponible',
  chosen: 'Tu elección actual: {currency} en {network}.',
  continueWith: 'Continuar con {currency} en {network}',
  chosenNote: 'Si eliges otra moneda, esta solicitud de pago se anula: no envíes fondos a su dirección después.',
  chooseAnother: 'O elige otra moneda',
  choosing: 'Preparando tu pago…',
  continueToPayment: 'Continuar al pago',
  paymentDetails: 'Ver los detalles del pago',
  errors: {
    closed: 'Esta factura ya no admite elegir moneda: está pagada, cerrada o fuera de plazo.',
    rate: 'Ahora mismo no hay un precio actualizado para esa moneda. Inténtalo de nuevo en un minuto o elige otra moneda.',
    'not-offered': 'Esa moneda no se ofrece para esta factura. Elige una de la lista.',
    busy: 'La pasarela está ocupada en este momento. Inténtalo de nuevo en unos instantes.',
    invalid: 'Elige una moneda de la lista.',
  },
  notFoundTitle: 'Factura no encontrada',
  notFoundBody: 'No hay ninguna factura en esta dirección. Revisa el enlace que te dio la tienda.',
  goBack: 'Volver atrás',
  home: 'Ir a la página de inicio',
  screens: {
    choose: { title: 'Elige cómo pagar', body: 'Elige una moneda y su red. El importe a enviar se fija al elegir.' },
    pay: { title: 'Pago en curso', body: 'Se ha visto un pago de esta factura. Síguelo en la página de pago.' },
    paid: { title: 'Pagada', body: 'Gracias: esta factura está pagada.' },
    expired: { title: 'Esta factura ha caducado', body: 'Se acabó el plazo para pagarla. No envíes fondos por ella; pide una factura nueva a la tienda.' },
    closed: {
      title: 'El pago no se completó',
      body: 'Esta factura se cerró sin un pago completo. La página de pago muestra lo recibido; contacta con el comercio.',
    },
  },
};

const invoiceAr: InvoiceMessages = {
  pageTitle: 'فاتورة من {merchant}',
  testModeNote: 'هذه فاتورة تجريبية: لا تُنقل أموال حقيقية.',
  price: 'السعر',
  coins: 'العملات التي يمكنك الدفع بها',
  searchLabel: 'ابحث عن عملة',
  searchHint: 'الرمز أو الاسم أو الشبكة',
  searchCount: 'العملات المعروضة: {shown} من {total}',
  searchNone: 'لا توجد عملة تطابق بحثك.',
  priceUnavailable: 'السعر غير متاح',
  chosen: 'اختيارك الحالي: {currency} على شبكة {network}.',
  continueWith: 'تابع باستخدام {currency} على شبكة {network}',
  chosenNote: 'اختيار عملة أخرى يلغي طلب الدفع هذا: لا ترسل أموالًا إلى عنوانه بعد ذلك.',
  chooseAnother: 'أو اختر عملة أخرى',
  choosing: 'جارٍ تجهيز دفعتك…',
  continueToPayment: 'تابع إلى الدفع',
  paymentDetails: 'عرض تفاصيل الدفع',
  errors: {
    closed: 'لم تعد هذه الفاتورة تقبل اختيار عملة: فهي مدفوعة أو مغلقة أو انتهت مهلتها.',
    rate: 'لا يتوفر سعر حديث لهذه العملة الآن. حاول مرة أخرى بعد دقيقة أو اختر عملة أخرى.',
    'not-offered': 'هذه العملة غير معروضة لهذه الفاتورة. اختر عملة من القائمة.',
    busy: 'البوابة مشغولة الآن. حاول مرة أخرى بعد لحظات.',
    invalid: 'اختر عملة من القائمة.',
  },
  notFoundTitle: 'الفاتورة غير موجودة',
  notFoundBody: 'لا توجد فاتورة على هذا العنوان. تحقق من الرابط الذي أعطاك إياه المتجر.',
  goBack: 'رجوع',
  home: 'الانتقال إلى الصفحة الرئيسية',
  screens: {
    choose: { title: 'اختر طريقة الدفع', body: 'اختر عملة وشبكتها. يُثبَّت المبلغ المطلوب إرساله عند الاختيار.' },
    pay: { title: 'الدفع قيد التنفيذ', body: 'رُصدت دفعة لهذه الفاتورة. تابعها في صفحة الدفع.' },
    paid: { title: 'تم الدفع', body: 'شكرًا لك: تم دفع هذه الفاتورة.' },
    expired: { title: 'انتهت صلاحية هذه الفاتورة', body: 'انتهت مهلة دفعها. لا ترسل أموالًا مقابلها؛ اطلب فاتورة جديدة من المتجر.' },
    closed: { title: 'لم تكتمل الدفعة', body: 'أُغلقت هذه الفاتورة دون دفعة كاملة. تعرض صفحة الدفع ما تم استلامه؛ تواصل مع التاجر.' },
  },
};

export const INVOICE_MESSAGES: Record<Language, InvoiceMessages> = { en: invoiceEn, es: invoiceEs, ar: invoiceAr };
