/**
 * The texts of "pay the rest" on the payment page (docs/decisions/069), in the languages of the
 * payment page: an underpaid or paid-late order offers a remainder order for what is left, a
 * settled order says so, and so does one whose payment is being refunded. The server picks one language and hands its texts to the page;
 * `{amount}` is filled in there (./format). Every language has every text:
 * lib/pay/i18n.test.ts checks every `*messages.ts` table under lib/pay.
 */
import type { Language } from './i18n';

export interface RestMessages {
  /** The button that opens the remainder order (the same one each time). */
  payRest: string;
  /** Above it: what is left, `{amount}` with its coin. */
  payRestNote: string;
  /** An order settled by its remainder, a late payment or the shop's decision. */
  settled: string;
  /** What arrived is being refunded to an address given for it (docs/decisions/102): never who asked. */
  refunding: string;
}

export const REST_MESSAGES: Record<Language, RestMessages> = {
  en: {
    payRest: 'Pay the rest',
    payRestNote: '{amount} is still to pay. Pay it with a new payment to complete your order.',
    settled: 'This order is settled. There is nothing more to pay.',
    refunding: 'What arrived for this order is being refunded. There is nothing more to pay.',
  },
  es: {
    payRest: 'Pagar el resto',
    payRestNote: 'Faltan {amount} por pagar. Págalo con un nuevo pago para completar tu pedido.',
    settled: 'Este pedido está resuelto. No hay nada más que pagar.',
    refunding: 'Se está tramitando el reembolso de lo recibido para este pedido. No hay nada más que pagar.',
  },
  ar: {
    payRest: 'ادفع الباقي',
    payRestNote: 'لا يزال عليك دفع {amount}. ادفعه بدفعة جديدة لإكمال طلبك.',
    settled: 'تمت تسوية هذا الطلب. لا يوجد شيء آخر للدفع.',
    refunding: 'يجري استرداد ما وصل لهذا الطلب. لا يوجد شيء آخر للدفع.',
  },
  pt: {
    payRest: 'Pagar o resto',
    payRestNote: 'Ainda faltam {amount} para pagar. Pague com um novo pagamento para concluir seu pedido.',
    settled: 'Este pedido foi resolvido. Não há mais nada a pagar.',
    refunding: 'Está sendo feito o reembolso do que chegou para este pedido. Não há mais nada a pagar.',
  },
  fr: {
    payRest: 'Payer le reste',
    payRestNote: 'Il reste {amount} à payer. Réglez-le par un nouveau paiement pour terminer votre commande.',
    settled: 'Cette commande est réglée. Il n’y a plus rien à payer.',
    refunding: 'Ce qui est arrivé pour cette commande est en cours de remboursement. Il n’y a plus rien à payer.',
  },
  de: {
    payRest: 'Rest bezahlen',
    payRestNote:
      'Es sind noch {amount} zu zahlen. Zahlen Sie sie mit einer neuen Zahlung, um Ihre Bestellung abzuschließen.',
    settled: 'Diese Bestellung ist erledigt. Es ist nichts mehr zu zahlen.',
    refunding:
      'Für das, was für diese Bestellung eingegangen ist, läuft eine Erstattung. Es ist nichts mehr zu zahlen.',
  },
  it: {
    payRest: 'Paga il resto',
    payRestNote: 'Restano da pagare {amount}. Pagali con un nuovo pagamento per completare l’ordine.',
    settled: 'Questo ordine è stato definito. Non c’è altro da pagare.',
    refunding: 'Quanto arrivato per questo ordine è in corso di rimborso. Non c’è altro da pagare.',
  },
  tr: {
    payRest: 'Kalanı öde',
    payRestNote: 'Ödenecek {amount} daha var. Siparişinizi tamamlamak için yeni bir ödemeyle ödeyin.',
    settled: 'Bu sipariş sonuçlandı. Ödenecek başka bir şey yok.',
    refunding: 'Bu sipariş için gelen ödemenin iadesi yapılıyor. Ödenecek başka bir şey yok.',
  },
  ru: {
    payRest: 'Доплатить',
    payRestNote: 'Осталось оплатить {amount}. Оплатите новым платежом, чтобы завершить заказ.',
    settled: 'Этот заказ урегулирован. Больше ничего платить не нужно.',
    refunding: 'По поступившему за этот заказ оформляется возврат. Больше ничего платить не нужно.',
  },
  uk: {
    payRest: 'Доплатити',
    payRestNote: 'Залишилося сплатити {amount}. Сплатіть новим платежем, щоб завершити замовлення.',
    settled: 'Це замовлення врегульовано. Більше нічого платити не потрібно.',
    refunding: 'Для коштів, що надійшли за це замовлення, оформлюється повернення. Більше нічого платити не потрібно.',
  },
  zh: {
    payRest: '支付余款',
    payRestNote: '还需支付 {amount}。请通过一笔新的付款支付，以完成您的订单。',
    settled: '此订单已处理完毕，无需再付款。',
    refunding: '此订单已收到的款项正在退款。无需再付款。',
  },
  ja: {
    payRest: '残りを支払う',
    payRestNote: 'あと {amount} のお支払いが必要です。新しい支払いでお支払いいただくと、ご注文が完了します。',
    settled: 'このご注文は解決済みです。これ以上のお支払いは不要です。',
    refunding: 'このご注文に届いた金額は返金手続き中です。これ以上のお支払いは不要です。',
  },
  hi: {
    payRest: 'बाकी राशि चुकाएँ',
    payRestNote: 'अभी {amount} चुकाना बाकी है। अपना ऑर्डर पूरा करने के लिए इसे एक नए भुगतान से चुकाएँ।',
    settled: 'यह ऑर्डर निपटा दिया गया है। अब कुछ और चुकाना नहीं है।',
    refunding: 'इस ऑर्डर के लिए आई राशि का रिफंड किया जा रहा है। अब कुछ और चुकाना नहीं है।',
  },
  vi: {
    payRest: 'Thanh toán phần còn thiếu',
    payRestNote: 'Bạn còn phải trả {amount}. Hãy trả bằng một khoản thanh toán mới để hoàn tất đơn hàng.',
    settled: 'Đơn hàng này đã được giải quyết. Bạn không cần trả thêm gì.',
    refunding: 'Số tiền đã nhận cho đơn hàng này đang được hoàn tiền. Bạn không cần trả thêm gì.',
  },
  id: {
    payRest: 'Bayar sisanya',
    payRestNote:
      'Masih ada {amount} yang harus dibayar. Bayar dengan pembayaran baru untuk menyelesaikan pesanan Anda.',
    settled: 'Pesanan ini sudah diselesaikan. Tidak ada lagi yang perlu dibayar.',
    refunding:
      'Pengembalian dana atas yang diterima untuk pesanan ini sedang diproses. Tidak ada lagi yang perlu dibayar.',
  },
  ur: {
    payRest: 'باقی رقم ادا کریں',
    payRestNote: 'ابھی {amount} ادا کرنا باقی ہے۔ اپنا آرڈر مکمل کرنے کے لیے اسے نئی ادائیگی سے ادا کریں۔',
    settled: 'یہ آرڈر طے ہو چکا ہے۔ مزید کچھ ادا نہیں کرنا۔',
    refunding: 'اس آرڈر کے لیے آئی رقم کا ریفنڈ کیا جا رہا ہے۔ مزید کچھ ادا نہیں کرنا۔',
  },
  'zh-Hant': {
    payRest: '支付餘款',
    payRestNote: '還需支付 {amount}。請以一筆新的付款支付，以完成您的訂單。',
    settled: '此訂單已處理完畢，無需再付款。',
    refunding: '此訂單已收到的款項正在退款。無需再付款。',
  },
  ko: {
    payRest: '나머지 결제하기',
    payRestNote: '아직 {amount}을(를) 결제해야 합니다. 새 결제로 지불하면 주문이 완료됩니다.',
    settled: '이 주문은 정리되었습니다. 더 결제할 금액이 없습니다.',
    refunding: '이 주문으로 받은 금액은 환불이 진행 중입니다. 더 결제할 금액이 없습니다.',
  },
};
