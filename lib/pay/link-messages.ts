/**
 * The texts of a payment link's page (`/link/{id}`, app/link), in the languages of the payment
 * page. The server picks one language and hands its texts to the page; `{currency}`, `{min}`,
 * `{max}` are filled in on the server (./format). Every language has every text:
 * lib/pay/i18n.test.ts checks every `*messages.ts` table under lib/.
 */
import type { Language } from './i18n';

/** Why the payer's "continue" was refused (`?error=` on the link's page). */
export const LINK_PAGE_ERRORS = ['busy', 'amount', 'quantity', 'rate', 'closed'] as const;
export type LinkPageError = (typeof LINK_PAGE_ERRORS)[number];

export function isLinkPageError(value: unknown): value is LinkPageError {
  return typeof value === 'string' && (LINK_PAGE_ERRORS as readonly string[]).includes(value);
}

export interface LinkMessages {
  price: string;
  quantity: string;
  /** The label of the amount the payer types. */
  amount: string;
  /** Under it: its bounds. */
  amountRange: string;
  /** The button that makes the invoice and opens it. */
  goOn: string;
  /** A disabled, expired or used-up link. */
  closed: string;
  notFoundTitle: string;
  notFoundBody: string;
  errors: Record<Exclude<LinkPageError, 'closed'>, string>;
}

export const LINK_MESSAGES: Record<Language, LinkMessages> = {
  en: {
    price: 'Price',
    quantity: 'Quantity',
    amount: 'Amount in {currency}',
    amountRange: 'From {min} to {max}',
    goOn: 'Continue to payment',
    closed: 'This payment link no longer takes payments.',
    notFoundTitle: 'Payment link not found',
    notFoundBody: 'Check that you have the whole link.',
    errors: {
      busy: 'Many payments are starting from this link right now. Try again in a minute.',
      amount: 'Enter an amount from {min} to {max}.',
      quantity: 'Choose a quantity from 1 to {max}.',
      rate: 'Coin prices are not available right now. Try again in a moment.',
    },
  },
  es: {
    price: 'Precio',
    quantity: 'Cantidad',
    amount: 'Monto en {currency}',
    amountRange: 'De {min} a {max}',
    goOn: 'Continuar al pago',
    closed: 'Este enlace de pago ya no acepta pagos.',
    notFoundTitle: 'Enlace de pago no encontrado',
    notFoundBody: 'Comprueba que tienes el enlace completo.',
    errors: {
      busy: 'Se están iniciando muchos pagos desde este enlace ahora mismo. Inténtalo de nuevo en un minuto.',
      amount: 'Ingresa un monto de {min} a {max}.',
      quantity: 'Elige una cantidad de 1 a {max}.',
      rate: 'Los precios en criptomonedas no están disponibles ahora. Inténtalo de nuevo en un momento.',
    },
  },
  ar: {
    price: 'السعر',
    quantity: 'الكمية',
    amount: 'المبلغ بعملة {currency}',
    amountRange: 'من {min} إلى {max}',
    goOn: 'متابعة إلى الدفع',
    closed: 'رابط الدفع هذا لم يعد يقبل الدفعات.',
    notFoundTitle: 'رابط الدفع غير موجود',
    notFoundBody: 'تحقق من أن لديك الرابط كاملًا.',
    errors: {
      busy: 'تبدأ دفعات كثيرة من هذا الرابط الآن. حاول مرة أخرى بعد دقيقة.',
      amount: 'أدخل مبلغًا من {min} إلى {max}.',
      quantity: 'اختر كمية من 1 إلى {max}.',
      rate: 'أسعار العملات المشفرة غير متاحة الآن. حاول مرة أخرى بعد قليل.',
    },
  },
  pt: {
    price: 'Preço',
    quantity: 'Quantidade',
    amount: 'Valor em {currency}',
    amountRange: 'De {min} a {max}',
    goOn: 'Continuar para o pagamento',
    closed: 'Este link de pagamento não aceita mais pagamentos.',
    notFoundTitle: 'Link de pagamento não encontrado',
    notFoundBody: 'Verifique se você tem o link completo.',
    errors: {
      busy: 'Muitos pagamentos estão sendo iniciados por este link agora. Tente novamente em um minuto.',
      amount: 'Informe um valor de {min} a {max}.',
      quantity: 'Escolha uma quantidade de 1 a {max}.',
      rate: 'Os preços em criptomoedas não estão disponíveis agora. Tente novamente em instantes.',
    },
  },
  fr: {
    price: 'Prix',
    quantity: 'Quantité',
    amount: 'Montant en {currency}',
    amountRange: 'De {min} à {max}',
    goOn: 'Continuer vers le paiement',
    closed: 'Ce lien de paiement n’accepte plus de paiements.',
    notFoundTitle: 'Lien de paiement introuvable',
    notFoundBody: 'Vérifiez que vous avez le lien complet.',
    errors: {
      busy: 'De nombreux paiements démarrent depuis ce lien en ce moment. Réessayez dans une minute.',
      amount: 'Saisissez un montant de {min} à {max}.',
      quantity: 'Choisissez une quantité de 1 à {max}.',
      rate: 'Les prix en cryptomonnaies ne sont pas disponibles pour le moment. Réessayez dans un instant.',
    },
  },
  de: {
    price: 'Preis',
    quantity: 'Menge',
    amount: 'Betrag in {currency}',
    amountRange: 'Von {min} bis {max}',
    goOn: 'Weiter zur Zahlung',
    closed: 'Dieser Zahlungslink nimmt keine Zahlungen mehr an.',
    notFoundTitle: 'Zahlungslink nicht gefunden',
    notFoundBody: 'Prüfen Sie, ob Sie den vollständigen Link haben.',
    errors: {
      busy: 'Gerade beginnen viele Zahlungen über diesen Link. Versuchen Sie es in einer Minute erneut.',
      amount: 'Geben Sie einen Betrag von {min} bis {max} ein.',
      quantity: 'Wählen Sie eine Menge von 1 bis {max}.',
      rate: 'Kryptopreise sind gerade nicht verfügbar. Versuchen Sie es gleich erneut.',
    },
  },
  it: {
    price: 'Prezzo',
    quantity: 'Quantità',
    amount: 'Importo in {currency}',
    amountRange: 'Da {min} a {max}',
    goOn: 'Continua al pagamento',
    closed: 'Questo link di pagamento non accetta più pagamenti.',
    notFoundTitle: 'Link di pagamento non trovato',
    notFoundBody: 'Controlla di avere il link completo.',
    errors: {
      busy: 'Molti pagamenti stanno partendo da questo link in questo momento. Riprova tra un minuto.',
      amount: 'Inserisci un importo da {min} a {max}.',
      quantity: 'Scegli una quantità da 1 a {max}.',
      rate: 'I prezzi in criptovalute non sono disponibili ora. Riprova tra poco.',
    },
  },
  tr: {
    price: 'Fiyat',
    quantity: 'Adet',
    amount: '{currency} cinsinden tutar',
    amountRange: '{min} ile {max} arası',
    goOn: 'Ödemeye devam et',
    closed: 'Bu ödeme bağlantısı artık ödeme kabul etmiyor.',
    notFoundTitle: 'Ödeme bağlantısı bulunamadı',
    notFoundBody: 'Bağlantının tamamına sahip olduğunuzu kontrol edin.',
    errors: {
      busy: 'Şu anda bu bağlantıdan çok sayıda ödeme başlatılıyor. Bir dakika sonra tekrar deneyin.',
      amount: '{min} ile {max} arasında bir tutar girin.',
      quantity: '1 ile {max} arasında bir adet seçin.',
      rate: 'Kripto para fiyatları şu anda kullanılamıyor. Birazdan tekrar deneyin.',
    },
  },
  ru: {
    price: 'Цена',
    quantity: 'Количество',
    amount: 'Сумма в {currency}',
    amountRange: 'От {min} до {max}',
    goOn: 'Перейти к оплате',
    closed: 'Эта платёжная ссылка больше не принимает платежи.',
    notFoundTitle: 'Платёжная ссылка не найдена',
    notFoundBody: 'Проверьте, что у вас ссылка целиком.',
    errors: {
      busy: 'Сейчас по этой ссылке начинается много платежей. Повторите попытку через минуту.',
      amount: 'Введите сумму от {min} до {max}.',
      quantity: 'Выберите количество от 1 до {max}.',
      rate: 'Цены в криптовалюте сейчас недоступны. Повторите попытку чуть позже.',
    },
  },
  uk: {
    price: 'Ціна',
    quantity: 'Кількість',
    amount: 'Сума в {currency}',
    amountRange: 'Від {min} до {max}',
    goOn: 'Перейти до оплати',
    closed: 'Це платіжне посилання більше не приймає платежі.',
    notFoundTitle: 'Платіжне посилання не знайдено',
    notFoundBody: 'Перевірте, що у вас посилання повністю.',
    errors: {
      busy: 'Зараз за цим посиланням починається багато платежів. Спробуйте ще раз за хвилину.',
      amount: 'Введіть суму від {min} до {max}.',
      quantity: 'Виберіть кількість від 1 до {max}.',
      rate: 'Ціни в криптовалюті зараз недоступні. Спробуйте ще раз трохи згодом.',
    },
  },
  zh: {
    price: '价格',
    quantity: '数量',
    amount: '金额（{currency}）',
    amountRange: '{min} 至 {max}',
    goOn: '继续付款',
    closed: '此付款链接已不再接受付款。',
    notFoundTitle: '未找到付款链接',
    notFoundBody: '请检查您的链接是否完整。',
    errors: {
      busy: '当前有大量付款正通过此链接发起。请一分钟后重试。',
      amount: '请输入 {min} 至 {max} 之间的金额。',
      quantity: '请选择 1 至 {max} 之间的数量。',
      rate: '暂时无法获取加密货币价格。请稍后重试。',
    },
  },
  ja: {
    price: '価格',
    quantity: '数量',
    amount: '金額（{currency}）',
    amountRange: '{min}～{max}',
    goOn: '支払いに進む',
    closed: 'この支払いリンクでは、現在お支払いを受け付けていません。',
    notFoundTitle: '支払いリンクが見つかりません',
    notFoundBody: 'リンク全体をお持ちか確認してください。',
    errors: {
      busy: '現在このリンクから多くの支払いが開始されています。1分後にもう一度お試しください。',
      amount: '{min}～{max}の金額を入力してください。',
      quantity: '1～{max}の数量を選んでください。',
      rate: '現在、暗号資産の価格を取得できません。しばらくしてからもう一度お試しください。',
    },
  },
  hi: {
    price: 'कीमत',
    quantity: 'मात्रा',
    amount: '{currency} में राशि',
    amountRange: '{min} से {max} तक',
    goOn: 'भुगतान पर आगे बढ़ें',
    closed: 'यह भुगतान लिंक अब भुगतान स्वीकार नहीं करता।',
    notFoundTitle: 'भुगतान लिंक नहीं मिला',
    notFoundBody: 'जाँच लें कि आपके पास पूरा लिंक है।',
    errors: {
      busy: 'इस समय इस लिंक से कई भुगतान शुरू हो रहे हैं। एक मिनट बाद फिर से कोशिश करें।',
      amount: '{min} से {max} तक की राशि दर्ज करें।',
      quantity: '1 से {max} तक की मात्रा चुनें।',
      rate: 'क्रिप्टो की कीमतें अभी उपलब्ध नहीं हैं। थोड़ी देर बाद फिर से कोशिश करें।',
    },
  },
  vi: {
    price: 'Giá',
    quantity: 'Số lượng',
    amount: 'Số tiền bằng {currency}',
    amountRange: 'Từ {min} đến {max}',
    goOn: 'Tiếp tục thanh toán',
    closed: 'Liên kết thanh toán này không còn nhận thanh toán.',
    notFoundTitle: 'Không tìm thấy liên kết thanh toán',
    notFoundBody: 'Hãy kiểm tra bạn có đầy đủ liên kết.',
    errors: {
      busy: 'Hiện có nhiều thanh toán đang bắt đầu từ liên kết này. Hãy thử lại sau một phút.',
      amount: 'Nhập số tiền từ {min} đến {max}.',
      quantity: 'Chọn số lượng từ 1 đến {max}.',
      rate: 'Giá tiền mã hóa hiện không có. Hãy thử lại sau giây lát.',
    },
  },
  id: {
    price: 'Harga',
    quantity: 'Jumlah',
    amount: 'Nominal dalam {currency}',
    amountRange: 'Dari {min} sampai {max}',
    goOn: 'Lanjut ke pembayaran',
    closed: 'Tautan pembayaran ini tidak lagi menerima pembayaran.',
    notFoundTitle: 'Tautan pembayaran tidak ditemukan',
    notFoundBody: 'Periksa bahwa tautan Anda lengkap.',
    errors: {
      busy: 'Saat ini banyak pembayaran dimulai dari tautan ini. Coba lagi dalam satu menit.',
      amount: 'Masukkan nominal dari {min} sampai {max}.',
      quantity: 'Pilih jumlah dari 1 sampai {max}.',
      rate: 'Harga kripto tidak tersedia saat ini. Coba lagi sebentar lagi.',
    },
  },
  ur: {
    price: 'قیمت',
    quantity: 'تعداد',
    amount: '{currency} میں رقم',
    amountRange: '{min} سے {max} تک',
    goOn: 'ادائیگی کی طرف بڑھیں',
    closed: 'یہ ادائیگی لنک اب ادائیگیاں قبول نہیں کرتا۔',
    notFoundTitle: 'ادائیگی لنک نہیں ملا',
    notFoundBody: 'چیک کریں کہ آپ کے پاس پورا لنک ہے۔',
    errors: {
      busy: 'اس وقت اس لنک سے بہت سی ادائیگیاں شروع ہو رہی ہیں۔ ایک منٹ بعد دوبارہ کوشش کریں۔',
      amount: '{min} سے {max} تک رقم درج کریں۔',
      quantity: '1 سے {max} تک تعداد منتخب کریں۔',
      rate: 'کرپٹو کی قیمتیں ابھی دستیاب نہیں ہیں۔ تھوڑی دیر بعد دوبارہ کوشش کریں۔',
    },
  },
  'zh-Hant': {
    price: '價格',
    quantity: '數量',
    amount: '金額（{currency}）',
    amountRange: '{min} 至 {max}',
    goOn: '繼續付款',
    closed: '此付款連結已不再接受付款。',
    notFoundTitle: '找不到付款連結',
    notFoundBody: '請確認您的連結是否完整。',
    errors: {
      busy: '目前有大量付款正透過此連結發起。請一分鐘後再試。',
      amount: '請輸入 {min} 至 {max} 之間的金額。',
      quantity: '請選擇 1 至 {max} 之間的數量。',
      rate: '目前無法取得加密貨幣價格。請稍後再試。',
    },
  },
  ko: {
    price: '가격',
    quantity: '수량',
    amount: '{currency} 금액',
    amountRange: '{min}~{max}',
    goOn: '결제 계속하기',
    closed: '이 결제 링크는 더 이상 결제를 받지 않습니다.',
    notFoundTitle: '결제 링크를 찾을 수 없습니다',
    notFoundBody: '링크 전체를 가지고 있는지 확인하세요.',
    errors: {
      busy: '지금 이 링크에서 많은 결제가 시작되고 있습니다. 1분 후 다시 시도하세요.',
      amount: '{min}~{max} 사이의 금액을 입력하세요.',
      quantity: '1~{max} 사이의 수량을 선택하세요.',
      rate: '지금은 암호화폐 가격을 가져올 수 없습니다. 잠시 후 다시 시도하세요.',
    },
  },
};
