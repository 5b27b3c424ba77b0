/**
 * The texts of the payer's mail that the payment page does not already have, per language of the
 * page (lib/pay/i18n LANGUAGES). A mail's title and body are the page's own words for the same
 * moment (lib/pay/messages `screens`), so the mail and the page never say different things; these
 * are the mail's links and its footer. Every language has every text: lib/pay/i18n.test.ts checks
 * each `*messages.ts` table under lib/ against the glossary.
 */
import type { Language } from '../pay/i18n';

export interface MailMessages {
  /** The link to the order's payment page (payment detected, expired). */
  openPage: string;
  /** The link to the payment page of a partly paid order, whose time still runs. */
  payRest: string;
  /** The link to the receipt of a paid order. */
  viewReceipt: string;
  /** Why the payer gets the mail: `{merchant}` is the merchant's name. */
  why: string;
  /** The unsubscribe link in every payer mail. */
  unsubscribe: string;
  /** The unsubscribe page's question, above its button (`unsubscribe`). */
  unsubscribeQuestion: string;
  /** The unsubscribe page once done. */
  unsubscribed: string;
}

export const MAIL_MESSAGES: Record<Language, MailMessages> = {
  en: {
    openPage: 'Open the payment page',
    payRest: 'Pay the rest',
    viewReceipt: 'View your receipt',
    why: 'You get this e-mail because this address was given for an order with {merchant}.',
    unsubscribe: 'Unsubscribe from these e-mails',
    unsubscribeQuestion: 'Stop the e-mails from {merchant} about your orders?',
    unsubscribed: 'Done: you will get no more e-mails from {merchant} about your orders.',
  },
  es: {
    openPage: 'Abrir la página de pago',
    payRest: 'Pagar el resto',
    viewReceipt: 'Ver tu recibo',
    why: 'Recibes este correo porque esta dirección se indicó en un pedido a {merchant}.',
    unsubscribe: 'Darse de baja de estos correos',
    unsubscribeQuestion: '¿Dejar de recibir correos de {merchant} sobre tus pedidos?',
    unsubscribed: 'Listo: ya no recibirás correos de {merchant} sobre tus pedidos.',
  },
  ar: {
    openPage: 'افتح صفحة الدفع',
    payRest: 'ادفع الباقي',
    viewReceipt: 'اعرض إيصالك',
    why: 'تصلك هذه الرسالة لأن هذا العنوان أُدخل في طلب لدى {merchant}.',
    unsubscribe: 'إلغاء الاشتراك في هذه الرسائل',
    unsubscribeQuestion: 'هل تريد إيقاف رسائل {merchant} بشأن طلباتك؟',
    unsubscribed: 'تم: لن تصلك بعد الآن رسائل من {merchant} بشأن طلباتك.',
  },
  pt: {
    openPage: 'Abrir a página de pagamento',
    payRest: 'Pagar o resto',
    viewReceipt: 'Ver seu recibo',
    why: 'Você recebe este e-mail porque este endereço foi informado em um pedido com {merchant}.',
    unsubscribe: 'Cancelar a inscrição nestes e-mails',
    unsubscribeQuestion: 'Parar os e-mails de {merchant} sobre seus pedidos?',
    unsubscribed: 'Pronto: você não receberá mais e-mails de {merchant} sobre seus pedidos.',
  },
  fr: {
    openPage: 'Ouvrir la page de paiement',
    payRest: 'Payer le reste',
    viewReceipt: 'Voir votre reçu',
    why: 'Vous recevez cet e-mail car cette adresse a été indiquée pour une commande chez {merchant}.',
    unsubscribe: 'Se désabonner de ces e-mails',
    unsubscribeQuestion: 'Ne plus recevoir les e-mails de {merchant} sur vos commandes\u00a0?',
    unsubscribed: 'C’est fait\u00a0: vous ne recevrez plus d’e-mails de {merchant} sur vos commandes.',
  },
  de: {
    openPage: 'Zahlungsseite öffnen',
    payRest: 'Den Rest bezahlen',
    viewReceipt: 'Beleg ansehen',
    why: 'Sie erhalten diese E-Mail, weil diese Adresse bei einer Bestellung bei {merchant} angegeben wurde.',
    unsubscribe: 'Diese E-Mails abbestellen',
    unsubscribeQuestion: 'Keine E-Mails mehr von {merchant} zu Ihren Bestellungen erhalten?',
    unsubscribed: 'Erledigt: Sie erhalten keine E-Mails mehr von {merchant} zu Ihren Bestellungen.',
  },
  it: {
    openPage: 'Apri la pagina di pagamento',
    payRest: 'Paga il resto',
    viewReceipt: 'Vedi la ricevuta',
    why: 'Ricevi questa e-mail perché questo indirizzo è stato indicato per un ordine presso {merchant}.',
    unsubscribe: 'Annulla l’iscrizione a queste e-mail',
    unsubscribeQuestion: 'Non ricevere più e-mail da {merchant} sui tuoi ordini?',
    unsubscribed: 'Fatto: non riceverai più e-mail da {merchant} sui tuoi ordini.',
  },
  tr: {
    openPage: 'Ödeme sayfasını aç',
    payRest: 'Kalanını öde',
    viewReceipt: 'Makbuzunu görüntüle',
    why: 'Bu e-postayı, bu adres {merchant} üzerinden verilen bir siparişte belirtildiği için alıyorsunuz.',
    unsubscribe: 'Bu e-postalardan çık',
    unsubscribeQuestion: '{merchant} tarafından siparişlerinizle ilgili gönderilen e-postalar durdurulsun mu?',
    unsubscribed: 'Tamam: {merchant} artık siparişlerinizle ilgili size e-posta göndermeyecek.',
  },
  ru: {
    openPage: 'Открыть страницу оплаты',
    payRest: 'Оплатить остаток',
    viewReceipt: 'Посмотреть квитанцию',
    why: 'Вы получили это письмо, потому что этот адрес указан в заказе у {merchant}.',
    unsubscribe: 'Отписаться от этих писем',
    unsubscribeQuestion: 'Больше не получать письма от {merchant} о ваших заказах?',
    unsubscribed: 'Готово: вы больше не будете получать письма от {merchant} о ваших заказах.',
  },
  uk: {
    openPage: 'Відкрити сторінку оплати',
    payRest: 'Сплатити решту',
    viewReceipt: 'Переглянути квитанцію',
    why: 'Ви отримали цей лист, бо цю адресу вказано в замовленні в {merchant}.',
    unsubscribe: 'Відписатися від цих листів',
    unsubscribeQuestion: 'Більше не отримувати листи від {merchant} про ваші замовлення?',
    unsubscribed: 'Готово: ви більше не отримуватимете листи від {merchant} про ваші замовлення.',
  },
  zh: {
    openPage: '打开付款页面',
    payRest: '支付余款',
    viewReceipt: '查看收据',
    why: '您收到此邮件，是因为在 {merchant} 的订单中填写了此地址。',
    unsubscribe: '退订这些邮件',
    unsubscribeQuestion: '不再接收 {merchant} 关于您订单的邮件？',
    unsubscribed: '已完成：您将不再收到 {merchant} 关于您订单的邮件。',
  },
  ja: {
    openPage: '支払いページを開く',
    payRest: '残りを支払う',
    viewReceipt: '領収書を見る',
    why: '{merchant} での注文でこのアドレスが入力されたため、このメールをお送りしています。',
    unsubscribe: 'これらのメールの配信を停止',
    unsubscribeQuestion: '{merchant} からのご注文に関するメールを停止しますか？',
    unsubscribed: '完了しました。{merchant} からご注文に関するメールは届かなくなります。',
  },
  hi: {
    openPage: 'भुगतान पेज खोलें',
    payRest: 'बाकी राशि का भुगतान करें',
    viewReceipt: 'अपनी रसीद देखें',
    why: 'आपको यह ईमेल इसलिए मिला क्योंकि {merchant} के एक ऑर्डर में यह पता दिया गया था।',
    unsubscribe: 'इन ईमेल की सदस्यता छोड़ें',
    unsubscribeQuestion: 'क्या आप {merchant} से अपने ऑर्डर के बारे में ईमेल बंद करना चाहते हैं?',
    unsubscribed: 'हो गया: अब आपको {merchant} से अपने ऑर्डर के बारे में ईमेल नहीं मिलेंगे।',
  },
  vi: {
    openPage: 'Mở trang thanh toán',
    payRest: 'Thanh toán phần còn lại',
    viewReceipt: 'Xem biên nhận',
    why: 'Bạn nhận được email này vì địa chỉ này đã được cung cấp cho một đơn hàng tại {merchant}.',
    unsubscribe: 'Hủy đăng ký nhận các email này',
    unsubscribeQuestion: 'Ngừng nhận email từ {merchant} về các đơn hàng của bạn?',
    unsubscribed: 'Xong: bạn sẽ không còn nhận email từ {merchant} về các đơn hàng của bạn.',
  },
  id: {
    openPage: 'Buka halaman pembayaran',
    payRest: 'Bayar sisanya',
    viewReceipt: 'Lihat tanda terima',
    why: 'Anda menerima email ini karena alamat ini diberikan untuk pesanan di {merchant}.',
    unsubscribe: 'Berhenti berlangganan email ini',
    unsubscribeQuestion: 'Berhenti menerima email dari {merchant} tentang pesanan Anda?',
    unsubscribed: 'Selesai: Anda tidak akan lagi menerima email dari {merchant} tentang pesanan Anda.',
  },
  ur: {
    openPage: 'ادائیگی کا صفحہ کھولیں',
    payRest: 'باقی رقم ادا کریں',
    viewReceipt: 'اپنی رسید دیکھیں',
    why: 'آپ کو یہ ای میل اس لیے ملی کیونکہ یہ پتہ {merchant} کے ایک آرڈر میں دیا گیا تھا۔',
    unsubscribe: 'ان ای میلز سے ان سبسکرائب کریں',
    unsubscribeQuestion: 'کیا آپ {merchant} کی جانب سے اپنے آرڈرز کے بارے میں ای میلز بند کرنا چاہتے ہیں؟',
    unsubscribed: 'ہو گیا: اب آپ کو {merchant} کی جانب سے اپنے آرڈرز کے بارے میں ای میلز نہیں ملیں گی۔',
  },
  'zh-Hant': {
    openPage: '開啟付款頁面',
    payRest: '支付餘款',
    viewReceipt: '查看收據',
    why: '您收到此郵件，是因為在 {merchant} 的訂單中填寫了此地址。',
    unsubscribe: '取消訂閱這些郵件',
    unsubscribeQuestion: '不再接收 {merchant} 關於您訂單的郵件？',
    unsubscribed: '已完成：您將不再收到 {merchant} 關於您訂單的郵件。',
  },
  ko: {
    openPage: '결제 페이지 열기',
    payRest: '나머지 결제하기',
    viewReceipt: '영수증 보기',
    why: '{merchant}의 주문에 이 주소가 입력되어 이 이메일을 보내 드립니다.',
    unsubscribe: '이 이메일 수신 거부',
    unsubscribeQuestion: '{merchant}에서 보내는 주문 관련 이메일을 중단할까요?',
    unsubscribed: '완료: 이제 {merchant}에서 주문 관련 이메일을 받지 않습니다.',
  },
};
