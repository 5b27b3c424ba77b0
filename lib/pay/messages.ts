/**
 * The payment page's texts, per language. The server page picks one language and passes that
 * one object to the browser as props: no other language reaches the client bundle.
 * Placeholders are `{name}` (see ./format `interpolate`). Amounts, addresses, transaction ids and
 * countdown digits are never translated: they are inserted as they are, left to right.
 */
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
