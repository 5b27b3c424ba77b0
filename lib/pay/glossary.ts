/**
 * The glossary of the payer's pages: for each language, the one word it uses for each key term
 * (the network, a confirmation, the destination tag, the wallet, the merchant, "detected",
 * "remaining", a refund), the script it is written in, and the words a reader flagged. Every
 * translation follows it, and lib/pay/i18n.test.ts checks every payer-facing message table
 * against it: a text whose English uses a term must use the language's word, no text may use a
 * flagged one. A new language (or a new payer page's table) starts here. Read only by that test:
 * no page imports it.
 *
 * `forms` are what a text must contain when the word inflects or takes particles (Russian
 * "кошелёк" is "кошельке", "кошелька": the stem "кошел"); without them, the word itself.
 * Matching ignores case and Arabic short vowels (تأكيدًا contains تأكيد).
 */
import type { Language } from './i18n';

export const TERMS = [
  'network',
  'confirmation',
  'tag',
  'wallet',
  'merchant',
  'detected',
  'remaining',
  'refund',
] as const;
export type Term = (typeof TERMS)[number];

/** The English texts that use a term (placeholders removed first: `{network}` is a name, not the word). */
export const ENGLISH_USES: Record<Term, RegExp> = {
  network: /\bnetworks?\b/i,
  confirmation: /\bconfirmations?\b/i,
  tag: /\bdestination tag\b/i,
  wallet: /\bwallets?\b/i,
  merchant: /\bmerchants?\b/i,
  detected: /\bdetected\b/i,
  remaining: /\bremaining\b/i,
  refund: /\brefund/i,
};

export interface GlossaryEntry {
  /** The word, as a translator writes it. */
  word: string;
  /** What a text using it contains, when inflection or particles change the word; the word itself when absent. */
  forms?: string[];
}

export type Script = 'Latin' | 'Arabic' | 'Cyrillic' | 'Devanagari' | 'Han' | 'Japanese' | 'Hangul';

export interface LanguageGlossary {
  /** A text with letters but none of this script is left in another language (untranslated). */
  script: Script;
  terms: Record<Term, GlossaryEntry>;
  /** Words a reader flagged, and why: they must not come back. */
  avoid: { text: string; why: string }[];
  /** Texts the language writes exactly as English does (a Latin-script text equal to English's is otherwise untranslated). */
  sameAsEnglish?: string[];
}

const word = (w: string, ...forms: string[]): GlossaryEntry => (forms.length ? { word: w, forms } : { word: w });

export const GLOSSARY: Record<Language, LanguageGlossary> = {
  en: {
    script: 'Latin',
    terms: {
      network: word('network'),
      confirmation: word('confirmation'),
      tag: word('destination tag'),
      wallet: word('wallet'),
      merchant: word('merchant'),
      detected: word('detected'),
      remaining: word('remaining'),
      refund: word('refund'),
    },
    avoid: [
      { text: 'order at this address', why: 'on a crypto page the address is the wallet address: "at this link"' },
      { text: 'invoice at this address', why: 'on a crypto page the address is the wallet address: "at this link"' },
      { text: 'has been seen', why: 'a payment is detected, and each language has a word for that' },
    ],
  },
  es: {
    script: 'Latin',
    terms: {
      network: word('red'),
      confirmation: word('confirmación', 'confirmaci'),
      tag: word('etiqueta de destino'),
      wallet: word('billetera'),
      merchant: word('comercio'),
      detected: word('detectado', 'detect'),
      remaining: word('pendiente'),
      refund: word('reembolso'),
    },
    avoid: [
      { text: 'monedero', why: "Spain's word; the pages are in neutral Latin American Spanish: billetera" },
      { text: 'importe', why: "Spain's word: monto" },
      { text: 'caduc', why: "Spain's word: vencer" },
      { text: 'faltan unos', why: '"faltan unos 1 segundo": the duration stands alone ("tiempo estimado: {time}")' },
    ],
    sameAsEnglish: ['Plan'],
  },
  ar: {
    script: 'Arabic',
    terms: {
      network: word('الشبكة', 'شبك'),
      confirmation: word('تأكيد'),
      tag: word('علامة الوجهة', 'علامة'),
      wallet: word('محفظة', 'محفظ', 'محافظ'),
      merchant: word('التاجر', 'تاجر'),
      detected: word('رُصد', 'رصد'),
      remaining: word('المتبقي', 'متبقي'),
      refund: word('استرداد'),
    },
    avoid: [
      { text: 'تتحدث', why: 'reads "talks": the page is updated (يتم تحديث)' },
      { text: 'وسم', why: 'a label or hashtag: the tag is علامة الوجهة' },
      { text: 'معكوس', why: 'reads "mirrored": a reversed payment is ملغاة' },
      { text: 'نحو', why: '"نحو {time}" breaks the case of the duration: "الوقت المتبقي المقدَّر: {time}"' },
    ],
  },
  pt: {
    script: 'Latin',
    terms: {
      network: word('rede'),
      confirmation: word('confirmação', 'confirmaç'),
      tag: word('tag de destino'),
      wallet: word('carteira'),
      merchant: word('lojista'),
      detected: word('detectado'),
      remaining: word('restante'),
      refund: word('reembolso'),
    },
    avoid: [{ text: 'faltam cerca de', why: '"faltam" with 1 second: the duration stands alone ("tempo estimado")' }],
  },
  fr: {
    script: 'Latin',
    terms: {
      network: word('réseau'),
      confirmation: word('confirmation'),
      tag: word('tag de destination'),
      wallet: word('portefeuille'),
      merchant: word('marchand'),
      detected: word('détecté'),
      remaining: word('restant'),
      refund: word('remboursement', 'rembours'),
    },
    avoid: [{ text: 'virement', why: 'a bank transfer: transfert' }],
    sameAsEnglish: ['Transaction'],
  },
  de: {
    script: 'Latin',
    terms: {
      network: word('Netzwerk'),
      confirmation: word('Bestätigung'),
      tag: word('Destination Tag'),
      wallet: word('die Wallet', 'Wallet'),
      merchant: word('Händler'),
      detected: word('erkannt'),
      remaining: word('offen'),
      refund: word('Erstattung'),
    },
    avoid: [
      { text: 'Zahlungsbestellung', why: 'not a German word' },
      { text: 'im Wallet', why: 'die Wallet, throughout' },
      { text: 'Ihrem Wallet', why: 'die Wallet, throughout' },
      { text: 'kennzeichnen', why: '"Sie kennzeichnen Ihre Zahlung" reads "you mark your payment"' },
    ],
  },
  it: {
    script: 'Latin',
    terms: {
      network: word('rete'),
      confirmation: word('conferma', 'confer'),
      tag: word('tag di destinazione'),
      wallet: word('wallet'),
      merchant: word('venditore'),
      detected: word('rilevato'),
      // "Da pagare" as the label, "l'importo restante" in a sentence.
      remaining: word('restante', 'restant', 'da pagare'),
      refund: word('rimborso'),
    },
    avoid: [],
  },
  tr: {
    script: 'Latin',
    terms: {
      network: word('ağ'),
      confirmation: word('onay'),
      tag: word('hedef etiketi', 'etiket'),
      wallet: word('cüzdan'),
      merchant: word('satıcı'),
      detected: word('algılandı', 'algıla'),
      remaining: word('kalan'),
      refund: word('iade'),
    },
    avoid: [{ text: 'ağ geçidi', why: 'a network router, where "ağ" is the blockchain network: ödeme sistemi' }],
    sameAsEnglish: ['Plan'],
  },
  ru: {
    script: 'Cyrillic',
    terms: {
      network: word('сеть', 'сет'),
      confirmation: word('подтверждение', 'подтвержд'),
      tag: word('тег назначения', 'тег'),
      wallet: word('кошелёк', 'кошел'),
      merchant: word('продавец', 'продав'),
      detected: word('обнаружен'),
      remaining: word('осталось', 'оста'),
      refund: word('возврат'),
    },
    avoid: [],
  },
  uk: {
    script: 'Cyrillic',
    terms: {
      network: word('мережа', 'мереж'),
      confirmation: word('підтвердження', 'підтвердж'),
      tag: word('тег призначення', 'тег'),
      wallet: word('гаманець', 'гаман'),
      merchant: word('продавець', 'продав'),
      detected: word('виявлено', 'виявлен'),
      // "Залишилося" as the label, "решту" in a sentence.
      remaining: word('залишилося', 'залиш', 'решт'),
      refund: word('повернення'),
    },
    avoid: [],
  },
  zh: {
    script: 'Han',
    terms: {
      network: word('网络'),
      confirmation: word('确认'),
      tag: word('目标标签', '标签'),
      wallet: word('钱包'),
      merchant: word('商家'),
      detected: word('检测到'),
      remaining: word('剩余'),
      refund: word('退款'),
    },
    avoid: [
      { text: '个确认', why: 'the wrong measure word: 次确认' },
      { text: '只能在', why: 'reads as a limitation of the network, not an instruction: 请仅通过' },
    ],
  },
  ja: {
    script: 'Japanese',
    terms: {
      network: word('ネットワーク'),
      confirmation: word('承認'),
      tag: word('宛先タグ', 'タグ'),
      wallet: word('ウォレット'),
      merchant: word('販売者'),
      detected: word('検出'),
      remaining: word('残額', '残'),
      refund: word('返金'),
    },
    avoid: [{ text: '確認されました', why: '"confirmed", when the payment was only detected: 検出しました' }],
  },
  hi: {
    script: 'Devanagari',
    terms: {
      network: word('नेटवर्क'),
      confirmation: word('पुष्टि'),
      tag: word('डेस्टिनेशन टैग', 'टैग'),
      wallet: word('वॉलेट'),
      merchant: word('व्यापारी'),
      detected: word('पता चला'),
      remaining: word('बाकी'),
      refund: word('रिफंड'),
    },
    avoid: [],
  },
  vi: {
    script: 'Latin',
    terms: {
      network: word('mạng'),
      confirmation: word('xác nhận'),
      tag: word('thẻ đích', 'thẻ'),
      wallet: word('ví'),
      merchant: word('người bán'),
      detected: word('phát hiện'),
      remaining: word('còn lại'),
      refund: word('hoàn tiền'),
    },
    avoid: [],
  },
  id: {
    script: 'Latin',
    terms: {
      network: word('jaringan'),
      confirmation: word('konfirmasi'),
      tag: word('tag tujuan', 'tag'),
      wallet: word('dompet'),
      merchant: word('penjual'),
      detected: word('terdeteksi'),
      remaining: word('sisa'),
      refund: word('pengembalian dana'),
    },
    avoid: [],
  },
  ur: {
    script: 'Arabic',
    terms: {
      network: word('نیٹ ورک'),
      confirmation: word('تصدیق'),
      tag: word('ڈیسٹینیشن ٹیگ', 'ٹیگ'),
      wallet: word('والیٹ'),
      merchant: word('تاجر'),
      detected: word('پتہ چل گیا', 'پتہ چل'),
      remaining: word('باقی'),
      refund: word('ریفنڈ'),
    },
    avoid: [],
  },
  'zh-Hant': {
    script: 'Han',
    terms: {
      network: word('網路'),
      confirmation: word('確認'),
      tag: word('目標標籤', '標籤'),
      wallet: word('錢包'),
      merchant: word('商家'),
      detected: word('偵測到'),
      remaining: word('剩餘'),
      refund: word('退款'),
    },
    // Simplified forms of characters these texts use: a Simplified text pasted in shows itself.
    avoid: ['个', '网络', '钱包', '币', '确认', '请', '发送', '订单', '时间', '页面', '账'].map((text) => ({
      text,
      why: 'Simplified Chinese in the Traditional texts',
    })),
  },
  ko: {
    script: 'Hangul',
    terms: {
      network: word('네트워크'),
      confirmation: word('확인'),
      tag: word('데스티네이션 태그', '태그'),
      wallet: word('지갑'),
      merchant: word('판매자'),
      detected: word('감지'),
      remaining: word('남은'),
      refund: word('환불'),
    },
    avoid: [],
  },
};
