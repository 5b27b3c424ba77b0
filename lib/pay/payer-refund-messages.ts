/**
 * The payer's refund choices on the payment page (docs/decisions/082, 088), in the languages of
 * the payment page: "get back what I sent" on an underpaid order, "claim the excess" on an
 * overpaid one, and the one answer the page gives after either is asked (the same whether or not
 * the order has an e-mail address: the page never tells). `{amount}` is the amount with its coin,
 * `{merchant}` the merchant's name, both filled in by the page. Every language has every text and
 * follows its glossary: lib/pay/i18n.test.ts checks every `*messages.ts` table under lib/.
 */
import type { Language } from './i18n';

export interface PayerRefundMessages {
  /** The button of an underpaid order: a refund of what arrived, instead of paying the rest. */
  sentButton: string;
  /** Above it: what arrived, `{amount}` with its coin. */
  sentNote: string;
  /** The button of an overpaid order: a refund of what was sent above the price. */
  excessButton: string;
  /** Above it: the excess, `{amount}` with its coin. */
  excessNote: string;
  /** After either was asked: a link went to the order's e-mail address, if it has one. */
  asked: string;
  /** Too many posts from this client this minute: nothing was asked. */
  busy: string;
}

export const PAYER_REFUND_MESSAGES: Record<Language, PayerRefundMessages> = {
  en: {
    sentButton: 'Get back what I sent',
    sentNote:
      '{amount} arrived for this order. Instead of paying the rest, you can ask for a refund of it. The network fee is taken from the refund.',
    excessButton: 'Claim the excess',
    excessNote:
      'You sent {amount} more than the price. You can ask for a refund of the excess. The network fee is taken from the refund.',
    asked:
      'If an e-mail address was given with this order, we have sent it a link where you can say where to send your refund. If none was given, ask {merchant}.',
    busy: 'Too many requests. Try again in a minute.',
  },
  es: {
    sentButton: 'Recuperar lo que envié',
    sentNote:
      'Llegaron {amount} para este pedido. En lugar de pagar el resto, puedes pedir su reembolso. La comisión de la red se descuenta del reembolso.',
    excessButton: 'Reclamar el excedente',
    excessNote:
      'Enviaste {amount} más que el precio. Puedes pedir el reembolso del excedente. La comisión de la red se descuenta del reembolso.',
    asked:
      'Si se dio un correo electrónico con este pedido, le enviamos un enlace para que indiques a dónde enviar tu reembolso. Si no se dio ninguno, pídeselo a {merchant}.',
    busy: 'Demasiadas solicitudes. Inténtalo de nuevo en un minuto.',
  },
  ar: {
    sentButton: 'استرداد ما أرسلته',
    sentNote: 'وصل {amount} لهذا الطلب. بدلًا من دفع الباقي، يمكنك طلب استرداده. تُخصم رسوم الشبكة من مبلغ الاسترداد.',
    excessButton: 'المطالبة بالمبلغ الزائد',
    excessNote: 'أرسلت {amount} أكثر من السعر. يمكنك طلب استرداد المبلغ الزائد. تُخصم رسوم الشبكة من مبلغ الاسترداد.',
    asked:
      'إذا أُعطي عنوان بريد إلكتروني مع هذا الطلب، فقد أرسلنا إليه رابطًا لتخبرنا أين نرسل مبلغ الاسترداد. إذا لم يُعطَ أي عنوان، فاطلبه من {merchant}.',
    busy: 'طلبات كثيرة جدًا. حاول مرة أخرى بعد دقيقة.',
  },
  pt: {
    sentButton: 'Receber de volta o que enviei',
    sentNote:
      'Chegaram {amount} para este pedido. Em vez de pagar o resto, você pode pedir o reembolso desse valor. A taxa da rede é descontada do reembolso.',
    excessButton: 'Pedir o excedente',
    excessNote:
      'Você enviou {amount} a mais que o preço. Você pode pedir o reembolso do excedente. A taxa da rede é descontada do reembolso.',
    asked:
      'Se um e-mail foi informado com este pedido, enviamos a ele um link para você dizer para onde enviar seu reembolso. Se nenhum foi informado, peça a {merchant}.',
    busy: 'Muitas solicitações. Tente novamente em um minuto.',
  },
  fr: {
    sentButton: 'Récupérer ce que j’ai envoyé',
    sentNote:
      '{amount} est arrivé pour cette commande. Au lieu de payer le reste, vous pouvez en demander le remboursement. Les frais de réseau sont déduits du remboursement.',
    excessButton: 'Réclamer l’excédent',
    excessNote:
      'Vous avez envoyé {amount} de plus que le prix. Vous pouvez demander le remboursement de l’excédent. Les frais de réseau sont déduits du remboursement.',
    asked:
      'Si une adresse e-mail a été donnée avec cette commande, nous lui avons envoyé un lien pour nous dire où envoyer votre remboursement. Si aucune n’a été donnée, adressez-vous à {merchant}.',
    busy: 'Trop de demandes. Réessayez dans une minute.',
  },
  de: {
    sentButton: 'Gesendeten Betrag zurückerhalten',
    sentNote:
      'Für diese Bestellung sind {amount} eingegangen. Statt den Rest zu zahlen, können Sie die Erstattung dieses Betrags beantragen. Die Netzwerkgebühr wird von der Erstattung abgezogen.',
    excessButton: 'Überschuss zurückfordern',
    excessNote:
      'Sie haben {amount} mehr als den Preis gesendet. Sie können die Erstattung des Überschusses beantragen. Die Netzwerkgebühr wird von der Erstattung abgezogen.',
    asked:
      'Wenn bei dieser Bestellung eine E-Mail-Adresse angegeben wurde, haben wir ihr einen Link geschickt, über den Sie uns sagen, wohin Ihre Erstattung gehen soll. Wenn keine angegeben wurde, wenden Sie sich an {merchant}.',
    busy: 'Zu viele Anfragen. Versuchen Sie es in einer Minute erneut.',
  },
  it: {
    sentButton: 'Riavere ciò che ho inviato',
    sentNote:
      'Per questo ordine sono arrivati {amount}. Invece di pagare il resto, puoi chiederne il rimborso. La commissione di rete viene detratta dal rimborso.',
    excessButton: 'Richiedi l’eccedenza',
    excessNote:
      'Hai inviato {amount} in più del prezzo. Puoi chiedere il rimborso dell’eccedenza. La commissione di rete viene detratta dal rimborso.',
    asked:
      'Se con questo ordine è stato indicato un indirizzo e-mail, gli abbiamo inviato un link per dirci dove inviare il tuo rimborso. Se non ne è stato indicato nessuno, rivolgiti a {merchant}.',
    busy: 'Troppe richieste. Riprova tra un minuto.',
  },
  tr: {
    sentButton: 'Gönderdiğimi geri al',
    sentNote:
      'Bu sipariş için {amount} geldi. Kalanı ödemek yerine bunun iadesini isteyebilirsiniz. Ağ ücreti iadeden düşülür.',
    excessButton: 'Fazlasını talep et',
    excessNote: 'Fiyattan {amount} fazla gönderdiniz. Fazlanın iadesini isteyebilirsiniz. Ağ ücreti iadeden düşülür.',
    asked:
      'Bu siparişle bir e-posta adresi verildiyse, iadenizin nereye gönderileceğini bize bildirmeniz için o adrese bir bağlantı gönderdik. Adres verilmediyse {merchant} ile iletişime geçin.',
    busy: 'Çok fazla istek. Bir dakika sonra tekrar deneyin.',
  },
  ru: {
    sentButton: 'Вернуть отправленное',
    sentNote:
      'По этому заказу поступило {amount}. Вместо доплаты вы можете запросить возврат этой суммы. Комиссия сети вычитается из возврата.',
    excessButton: 'Вернуть излишек',
    excessNote:
      'Вы отправили на {amount} больше цены. Вы можете запросить возврат излишка. Комиссия сети вычитается из возврата.',
    asked:
      'Если к этому заказу был указан адрес электронной почты, мы отправили на него ссылку, по которой вы укажете, куда отправить возврат. Если адрес не был указан, обратитесь к {merchant}.',
    busy: 'Слишком много запросов. Повторите попытку через минуту.',
  },
  uk: {
    sentButton: 'Повернути надіслане',
    sentNote:
      'За цим замовленням надійшло {amount}. Замість доплати ви можете запросити повернення цієї суми. Комісія мережі вираховується з повернення.',
    excessButton: 'Повернути надлишок',
    excessNote:
      'Ви надіслали на {amount} більше за ціну. Ви можете запросити повернення надлишку. Комісія мережі вираховується з повернення.',
    asked:
      'Якщо до цього замовлення було вказано адресу електронної пошти, ми надіслали на неї посилання, за яким ви вкажете, куди надіслати повернення. Якщо адресу не вказано, зверніться до {merchant}.',
    busy: 'Забагато запитів. Спробуйте ще раз за хвилину.',
  },
  zh: {
    sentButton: '取回我已发送的款项',
    sentNote: '此订单已收到 {amount}。您可以不支付余款，而是申请将其退款。网络手续费从退款中扣除。',
    excessButton: '申领多付的部分',
    excessNote: '您多发送了 {amount}。您可以申请对多付部分退款。网络手续费从退款中扣除。',
    asked:
      '如果此订单提供了电子邮件地址，我们已向其发送一个链接，您可在其中告诉我们退款发往何处。如果未提供，请联系 {merchant}。',
    busy: '请求过多，请一分钟后再试。',
  },
  ja: {
    sentButton: '送った分を返してもらう',
    sentNote:
      'このご注文には {amount} が届いています。残りを支払う代わりに、その返金を依頼できます。ネットワーク手数料は返金額から差し引かれます。',
    excessButton: '超過分を請求する',
    excessNote:
      '価格より {amount} 多く送金されました。超過分の返金を依頼できます。ネットワーク手数料は返金額から差し引かれます。',
    asked:
      'このご注文にメールアドレスが指定されていれば、返金の送り先をお知らせいただくためのリンクをそのアドレスに送りました。指定がない場合は {merchant} にお問い合わせください。',
    busy: 'リクエストが多すぎます。1 分後にもう一度お試しください。',
  },
  hi: {
    sentButton: 'मैंने जो भेजा वह वापस पाएँ',
    sentNote:
      'इस ऑर्डर के लिए {amount} आया है। बाकी राशि चुकाने के बजाय, आप इसका रिफंड माँग सकते हैं। नेटवर्क शुल्क रिफंड से काटा जाता है।',
    excessButton: 'अतिरिक्त राशि का दावा करें',
    excessNote: 'आपने कीमत से {amount} अधिक भेजा है। आप अतिरिक्त राशि का रिफंड माँग सकते हैं। नेटवर्क शुल्क रिफंड से काटा जाता है।',
    asked:
      'अगर इस ऑर्डर के साथ कोई ई-मेल पता दिया गया था, तो हमने उस पर एक लिंक भेजा है, जिससे आप बता सकें कि आपका रिफंड कहाँ भेजना है। अगर कोई पता नहीं दिया गया था, तो {merchant} से संपर्क करें।',
    busy: 'बहुत अधिक अनुरोध। एक मिनट बाद फिर से कोशिश करें।',
  },
  vi: {
    sentButton: 'Nhận lại số tiền tôi đã gửi',
    sentNote:
      'Đơn hàng này đã nhận {amount}. Thay vì thanh toán phần còn thiếu, bạn có thể yêu cầu hoàn tiền số này. Phí mạng được trừ vào khoản hoàn tiền.',
    excessButton: 'Yêu cầu phần trả thừa',
    excessNote:
      'Bạn đã gửi thừa {amount} so với giá. Bạn có thể yêu cầu hoàn tiền phần thừa. Phí mạng được trừ vào khoản hoàn tiền.',
    asked:
      'Nếu đơn hàng này có kèm địa chỉ email, chúng tôi đã gửi đến đó một liên kết để bạn cho biết nơi nhận khoản hoàn tiền. Nếu không có, hãy liên hệ {merchant}.',
    busy: 'Quá nhiều yêu cầu. Hãy thử lại sau một phút.',
  },
  id: {
    sentButton: 'Minta kembali yang saya kirim',
    sentNote:
      '{amount} telah masuk untuk pesanan ini. Alih-alih membayar sisanya, Anda dapat meminta pengembalian dana atas jumlah itu. Biaya jaringan dipotong dari pengembalian dana.',
    excessButton: 'Klaim kelebihannya',
    excessNote:
      'Anda mengirim {amount} lebih dari harga. Anda dapat meminta pengembalian dana atas kelebihannya. Biaya jaringan dipotong dari pengembalian dana.',
    asked:
      'Jika alamat email diberikan bersama pesanan ini, kami telah mengirim tautan ke alamat itu agar Anda dapat memberi tahu ke mana pengembalian dana dikirim. Jika tidak ada, hubungi {merchant}.',
    busy: 'Terlalu banyak permintaan. Coba lagi dalam satu menit.',
  },
  ur: {
    sentButton: 'جو بھیجا وہ واپس لیں',
    sentNote:
      'اس آرڈر کے لیے {amount} موصول ہوئے۔ باقی رقم ادا کرنے کے بجائے آپ اس کا ریفنڈ مانگ سکتے ہیں۔ نیٹ ورک فیس ریفنڈ سے کاٹی جاتی ہے۔',
    excessButton: 'زائد رقم کا دعویٰ کریں',
    excessNote:
      'آپ نے قیمت سے {amount} زیادہ بھیجے۔ آپ زائد رقم کا ریفنڈ مانگ سکتے ہیں۔ نیٹ ورک فیس ریفنڈ سے کاٹی جاتی ہے۔',
    asked:
      'اگر اس آرڈر کے ساتھ کوئی ای میل پتہ دیا گیا تھا تو ہم نے اس پر ایک لنک بھیجا ہے جس سے آپ بتا سکیں کہ آپ کا ریفنڈ کہاں بھیجنا ہے۔ اگر کوئی پتہ نہیں دیا گیا تو {merchant} سے رابطہ کریں۔',
    busy: 'بہت زیادہ درخواستیں۔ ایک منٹ بعد دوبارہ کوشش کریں۔',
  },
  'zh-Hant': {
    sentButton: '取回我已傳送的款項',
    sentNote: '此訂單已收到 {amount}。您可以不支付餘款，改為申請將其退款。網路手續費從退款中扣除。',
    excessButton: '申領多付的部分',
    excessNote: '您多傳送了 {amount}。您可以申請對多付部分退款。網路手續費從退款中扣除。',
    asked:
      '如果此訂單提供了電子郵件地址，我們已向其寄出一個連結，您可在其中告訴我們退款要送往何處。如果未提供，請聯絡 {merchant}。',
    busy: '要求過多，請一分鐘後再試。',
  },
  ko: {
    sentButton: '보낸 금액 돌려받기',
    sentNote:
      '이 주문에 {amount}이(가) 도착했습니다. 나머지를 결제하는 대신 이 금액의 환불을 요청할 수 있습니다. 네트워크 수수료는 환불 금액에서 차감됩니다.',
    excessButton: '초과분 청구하기',
    excessNote:
      '가격보다 {amount} 더 보내셨습니다. 초과분의 환불을 요청할 수 있습니다. 네트워크 수수료는 환불 금액에서 차감됩니다.',
    asked:
      '이 주문에 이메일 주소가 제공되었다면, 환불을 어디로 보낼지 알려 주실 수 있는 링크를 그 주소로 보냈습니다. 제공되지 않았다면 {merchant}에 문의하세요.',
    busy: '요청이 너무 많습니다. 1분 후에 다시 시도하세요.',
  },
};
