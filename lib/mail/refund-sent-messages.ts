/**
 * The refund-sent mail's texts (docs/refunds.md, docs/decisions/088): sent when a refund is
 * confirmed on chain, in the payment page's languages (lib/pay/i18n LANGUAGES). Placeholders:
 * `{merchant}` the merchant's name, `{amount}` the amount with its coin, `{network}` the network's
 * name. The address and transaction labels are the payment page's own (lib/pay/messages), the
 * footer the order mails' (./mail-messages). Every language has every text and follows its
 * glossary: lib/pay/i18n.test.ts checks every `*messages.ts` table under lib/.
 */
import type { Language } from '../pay/i18n';

export interface RefundSentMessages {
  subject: string;
  intro: string;
  /** The refund's transaction has the network's confirmations. */
  confirmed: string;
  /** The link to the transaction on the network's explorer, where the catalog has one. */
  explorer: string;
}

export const REFUND_SENT_MESSAGES: Record<Language, RefundSentMessages> = {
  en: {
    subject: '{merchant} sent your refund of {amount}',
    intro: '{merchant} sent you a refund of {amount} on the {network} network.',
    confirmed: 'The transaction is confirmed on the network.',
    explorer: 'View the transaction',
  },
  es: {
    subject: '{merchant} te envió tu reembolso de {amount}',
    intro: '{merchant} te envió un reembolso de {amount} en la red {network}.',
    confirmed: 'La transacción está confirmada en la red.',
    explorer: 'Ver la transacción',
  },
  ar: {
    subject: 'أرسل {merchant} مبلغ الاسترداد {amount}',
    intro: 'أرسل إليك {merchant} استردادًا بمبلغ {amount} على شبكة {network}.',
    confirmed: 'تم تأكيد المعاملة على الشبكة.',
    explorer: 'عرض المعاملة',
  },
  pt: {
    subject: '{merchant} enviou seu reembolso de {amount}',
    intro: '{merchant} enviou a você um reembolso de {amount} na rede {network}.',
    confirmed: 'A transação está confirmada na rede.',
    explorer: 'Ver a transação',
  },
  fr: {
    subject: '{merchant} vous a envoyé votre remboursement de {amount}',
    intro: '{merchant} vous a envoyé un remboursement de {amount} sur le réseau {network}.',
    confirmed: 'La transaction est confirmée sur le réseau.',
    explorer: 'Voir la transaction',
  },
  de: {
    subject: '{merchant} hat Ihre Erstattung von {amount} gesendet',
    intro: '{merchant} hat Ihnen eine Erstattung von {amount} im Netzwerk {network} gesendet.',
    confirmed: 'Die Transaktion ist im Netzwerk bestätigt.',
    explorer: 'Transaktion ansehen',
  },
  it: {
    subject: '{merchant} ha inviato il tuo rimborso di {amount}',
    intro: '{merchant} ti ha inviato un rimborso di {amount} sulla rete {network}.',
    confirmed: 'La transazione è confermata sulla rete.',
    explorer: 'Vedi la transazione',
  },
  tr: {
    subject: '{merchant} {amount} tutarındaki iadenizi gönderdi',
    intro: '{merchant} size {network} ağında {amount} tutarında bir iade gönderdi.',
    confirmed: 'İşlem ağda onaylandı.',
    explorer: 'İşlemi görüntüle',
  },
  ru: {
    subject: '{merchant} отправил ваш возврат {amount}',
    intro: '{merchant} отправил вам возврат {amount} в сети {network}.',
    confirmed: 'Транзакция подтверждена в сети.',
    explorer: 'Посмотреть транзакцию',
  },
  uk: {
    subject: '{merchant} надіслав ваше повернення {amount}',
    intro: '{merchant} надіслав вам повернення {amount} у мережі {network}.',
    confirmed: 'Транзакцію підтверджено в мережі.',
    explorer: 'Переглянути транзакцію',
  },
  zh: {
    subject: '{merchant} 已发送您的退款 {amount}',
    intro: '{merchant} 已在 {network} 网络上向您发送 {amount} 的退款。',
    confirmed: '该交易已在网络上确认。',
    explorer: '查看交易',
  },
  ja: {
    subject: '{merchant} から {amount} の返金が送られました',
    intro: '{merchant} から {network} ネットワークで {amount} の返金が送られました。',
    confirmed: '取引はネットワーク上で承認されました。',
    explorer: '取引を表示',
  },
  hi: {
    subject: '{merchant} ने आपका {amount} का रिफंड भेज दिया',
    intro: '{merchant} ने आपको {network} नेटवर्क पर {amount} का रिफंड भेजा है।',
    confirmed: 'लेन-देन की नेटवर्क पर पुष्टि हो गई है।',
    explorer: 'लेन-देन देखें',
  },
  vi: {
    subject: '{merchant} đã gửi khoản hoàn tiền {amount} của bạn',
    intro: '{merchant} đã gửi cho bạn khoản hoàn tiền {amount} trên mạng {network}.',
    confirmed: 'Giao dịch đã được xác nhận trên mạng.',
    explorer: 'Xem giao dịch',
  },
  id: {
    subject: '{merchant} telah mengirim pengembalian dana Anda sebesar {amount}',
    intro: '{merchant} telah mengirimi Anda pengembalian dana sebesar {amount} di jaringan {network}.',
    confirmed: 'Transaksi telah dikonfirmasi di jaringan.',
    explorer: 'Lihat transaksi',
  },
  ur: {
    subject: '{merchant} نے آپ کا {amount} کا ریفنڈ بھیج دیا',
    intro: '{merchant} نے آپ کو {network} نیٹ ورک پر {amount} کا ریفنڈ بھیجا ہے۔',
    confirmed: 'ٹرانزیکشن کی نیٹ ورک پر تصدیق ہو گئی ہے۔',
    explorer: 'ٹرانزیکشن دیکھیں',
  },
  'zh-Hant': {
    subject: '{merchant} 已傳送您的退款 {amount}',
    intro: '{merchant} 已在 {network} 網路上向您傳送 {amount} 的退款。',
    confirmed: '該交易已在網路上確認。',
    explorer: '檢視交易',
  },
  ko: {
    subject: '{merchant}에서 {amount} 환불을 보냈습니다',
    intro: '{merchant}에서 {network} 네트워크로 {amount} 환불을 보냈습니다.',
    confirmed: '거래가 네트워크에서 확인되었습니다.',
    explorer: '거래 보기',
  },
};
