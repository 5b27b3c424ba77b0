/**
 * The refund claim's texts (docs/refunds.md, docs/decisions/071): the claim mail and the payer's
 * claim page (`/refund/<token>`), in the payment page's languages (lib/pay/i18n LANGUAGES), one
 * object per language. Placeholders: `{merchant}` the merchant's name (the mail only: the page
 * shows nothing of the merchant), `{amount}` the amount with its coin, `{network}` the network's
 * name, `{date}` the link's last day. Every language has every text, and follows its glossary:
 * lib/pay/i18n.test.ts checks every `*messages.ts` table under lib/.
 */
import type { Language } from '../pay/i18n';

export interface RefundClaimMessages {
  /** In the mail and under the page's address field. */
  exchangeNote: string;
  mail: {
    subject: string;
    intro: string;
    /** What to do, and until when the link works. */
    ask: string;
    /** The link's button. */
    button: string;
    ignore: string;
  };
  page: {
    /** The page's heading and title. */
    title: string;
    amountOn: string;
    askTitle: string;
    addressLabel: string;
    /** The tag field, on tag networks. */
    tagLabel: string;
    addressNote: string;
    review: string;
    confirmTitle: string;
    confirmBody: string;
    /** Beside a reviewed or confirmed address's tag. */
    tag: string;
    confirm: string;
    change: string;
    /** Why the page took no address: lib/refunds ClaimAddressInvalid's reasons, and a busy database. */
    errors: { address: string; noTag: string; tag: string; busy: string };
    /** A claim past its address, by the refund's state. */
    states: { ready: string; sent: string; confirmed: string; failed: string; canceled: string };
    notFoundTitle: string;
    notFoundBody: string;
  };
}

export const REFUND_CLAIM_MESSAGES: Record<Language, RefundClaimMessages> = {
  en: {
    exchangeNote: "An exchange's deposit address may not accept refunds.",
    mail: {
      subject: '{merchant} is refunding you {amount}',
      intro: '{merchant} is sending you a refund of {amount} on the {network} network.',
      ask: 'Tell them where to send it: open this link and give a {network} address you control. The link works once, until {date}.',
      button: 'Give the address for your refund',
      ignore: 'If you did not expect a refund, ignore this e-mail.',
    },
    page: {
      title: 'Your refund',
      amountOn: '{amount} on the {network} network.',
      askTitle: 'Where should we send it?',
      addressLabel: 'Your {network} address',
      tagLabel: 'Destination tag (if your wallet or exchange gave you one)',
      addressNote: 'Give only a {network} address you control.',
      review: 'Review',
      confirmTitle: 'Confirm the address',
      confirmBody: 'The refund goes to this address. Once you confirm, it cannot be changed.',
      tag: 'Destination tag',
      confirm: 'Confirm and receive the refund here',
      change: 'Change the address',
      errors: {
        address: 'This is not a valid {network} address: check it and try again.',
        noTag: '{network} addresses take no destination tag: leave that field empty.',
        tag: 'A destination tag is a whole number from 0 to 4294967295.',
        busy: 'The service is busy: try again in a moment.',
      },
      states: {
        ready: 'Address confirmed: the refund will be sent to it.',
        sent: 'The refund is on its way.',
        confirmed: 'The refund has arrived.',
        failed: 'The refund could not be sent: the merchant will contact you.',
        canceled: 'The merchant canceled this refund.',
      },
      notFoundTitle: 'This refund link is not valid',
      notFoundBody:
        'It expired, was already used to confirm an address, or was replaced by a newer link. Ask the merchant for a new one.',
    },
  },
  es: {
    exchangeNote: 'Es posible que la dirección de depósito de un exchange no acepte reembolsos.',
    mail: {
      subject: '{merchant} te envía un reembolso de {amount}',
      intro: '{merchant} te está enviando un reembolso de {amount} en la red {network}.',
      ask: 'Indica adónde enviarlo: abre este enlace e ingresa una dirección de {network} que controles. El enlace funciona una sola vez, hasta el {date}.',
      button: 'Indicar la dirección para tu reembolso',
      ignore: 'Si no esperabas un reembolso, ignora este correo.',
    },
    page: {
      title: 'Tu reembolso',
      amountOn: '{amount} en la red {network}.',
      askTitle: '¿Adónde te lo enviamos?',
      addressLabel: 'Tu dirección de {network}',
      tagLabel: 'Etiqueta de destino (si tu billetera o exchange te dio una)',
      addressNote: 'Ingresa solo una dirección de {network} que controles.',
      review: 'Revisar',
      confirmTitle: 'Confirma la dirección',
      confirmBody: 'El reembolso se enviará a esta dirección. Una vez que confirmes, no se puede cambiar.',
      tag: 'Etiqueta de destino',
      confirm: 'Confirmar y recibir el reembolso aquí',
      change: 'Cambiar la dirección',
      errors: {
        address: 'Esta no es una dirección de {network} válida: revísala e inténtalo de nuevo.',
        noTag: 'Las direcciones de {network} no llevan etiqueta de destino: deja ese campo vacío.',
        tag: 'Una etiqueta de destino es un número entero de 0 a 4294967295.',
        busy: 'El servicio está ocupado: inténtalo de nuevo en un momento.',
      },
      states: {
        ready: 'Dirección confirmada: el reembolso se enviará a ella.',
        sent: 'El reembolso está en camino.',
        confirmed: 'El reembolso llegó.',
        failed: 'No se pudo enviar el reembolso: el comercio se comunicará contigo.',
        canceled: 'El comercio canceló este reembolso.',
      },
      notFoundTitle: 'Este enlace de reembolso no es válido',
      notFoundBody:
        'Venció, ya se usó para confirmar una dirección o fue reemplazado por un enlace más reciente. Pídele uno nuevo al comercio.',
    },
  },
  ar: {
    exchangeNote: 'قد لا يقبل عنوان الإيداع في منصة تداول عمليات الاسترداد.',
    mail: {
      subject: 'استرداد {amount} من {merchant}',
      intro: 'يرسل إليك {merchant} استردادًا بقيمة {amount} على شبكة {network}.',
      ask: 'أخبره أين يرسله: افتح هذا الرابط وأدخل عنوان {network} تتحكم فيه. يعمل الرابط مرة واحدة، حتى {date}.',
      button: 'أدخل العنوان لاسترداد أموالك',
      ignore: 'إذا لم تكن تتوقع استردادًا، فتجاهل هذه الرسالة.',
    },
    page: {
      title: 'استرداد أموالك',
      amountOn: '{amount} على شبكة {network}.',
      askTitle: 'إلى أين نرسله؟',
      addressLabel: 'عنوان {network} الخاص بك',
      tagLabel: 'علامة الوجهة (Destination Tag)، إن أعطتك محفظتك أو منصة التداول واحدة',
      addressNote: 'أدخل فقط عنوان {network} تتحكم فيه.',
      review: 'مراجعة',
      confirmTitle: 'أكّد العنوان',
      confirmBody: 'سيُرسل الاسترداد إلى هذا العنوان. بعد التأكيد لا يمكن تغييره.',
      tag: 'علامة الوجهة (Destination Tag)',
      confirm: 'أكّد واستلم الاسترداد هنا',
      change: 'غيّر العنوان',
      errors: {
        address: 'هذا ليس عنوان {network} صالحًا: تحقق منه وحاول مرة أخرى.',
        noTag: 'عناوين {network} لا تستخدم علامة الوجهة (Destination Tag): اترك هذا الحقل فارغًا.',
        tag: 'علامة الوجهة (Destination Tag) عدد صحيح من 0 إلى 4294967295.',
        busy: 'الخدمة مشغولة: حاول مرة أخرى بعد قليل.',
      },
      states: {
        ready: 'تم تأكيد العنوان: سيُرسل الاسترداد إليه.',
        sent: 'الاسترداد في طريقه إليك.',
        confirmed: 'وصل الاسترداد.',
        failed: 'تعذّر إرسال الاسترداد: سيتواصل التاجر معك.',
        canceled: 'ألغى التاجر هذا الاسترداد.',
      },
      notFoundTitle: 'رابط الاسترداد هذا غير صالح',
      notFoundBody: 'انتهت صلاحيته، أو استُخدم بالفعل لتأكيد عنوان، أو استُبدل برابط أحدث. اطلب رابطًا جديدًا من التاجر.',
    },
  },
  pt: {
    exchangeNote: 'O endereço de depósito de uma corretora pode não aceitar reembolsos.',
    mail: {
      subject: '{merchant} está enviando um reembolso de {amount}',
      intro: '{merchant} está enviando para você um reembolso de {amount} na rede {network}.',
      ask: 'Diga para onde enviar: abra este link e informe um endereço {network} que você controla. O link funciona uma vez, até {date}.',
      button: 'Informar o endereço do seu reembolso',
      ignore: 'Se você não esperava um reembolso, ignore este e-mail.',
    },
    page: {
      title: 'Seu reembolso',
      amountOn: '{amount} na rede {network}.',
      askTitle: 'Para onde devemos enviá-lo?',
      addressLabel: 'Seu endereço {network}',
      tagLabel: 'Tag de destino (se a sua carteira ou corretora forneceu uma)',
      addressNote: 'Informe apenas um endereço {network} que você controla.',
      review: 'Revisar',
      confirmTitle: 'Confirme o endereço',
      confirmBody: 'O reembolso vai para este endereço. Depois de confirmar, ele não pode ser alterado.',
      tag: 'Tag de destino',
      confirm: 'Confirmar e receber o reembolso aqui',
      change: 'Alterar o endereço',
      errors: {
        address: 'Este não é um endereço {network} válido: verifique e tente novamente.',
        noTag: 'Endereços {network} não usam tag de destino: deixe esse campo vazio.',
        tag: 'Uma tag de destino é um número inteiro de 0 a 4294967295.',
        busy: 'O serviço está ocupado: tente novamente em instantes.',
      },
      states: {
        ready: 'Endereço confirmado: o reembolso será enviado para ele.',
        sent: 'O reembolso está a caminho.',
        confirmed: 'O reembolso chegou.',
        failed: 'Não foi possível enviar o reembolso: o lojista entrará em contato com você.',
        canceled: 'O lojista cancelou este reembolso.',
      },
      notFoundTitle: 'Este link de reembolso não é válido',
      notFoundBody:
        'Ele expirou, já foi usado para confirmar um endereço ou foi substituído por um link mais recente. Peça um novo ao lojista.',
    },
  },
  fr: {
    exchangeNote: 'L’adresse de dépôt d’une plateforme d’échange peut refuser les remboursements.',
    mail: {
      subject: '{merchant} vous rembourse {amount}',
      intro: '{merchant} vous envoie un remboursement de {amount} sur le réseau {network}.',
      ask: 'Indiquez-lui où l’envoyer\u00a0: ouvrez ce lien et saisissez une adresse {network} que vous contrôlez. Le lien ne sert qu’une fois, jusqu’au {date}.',
      button: 'Indiquer l’adresse de votre remboursement',
      ignore: 'Si vous n’attendiez pas de remboursement, ignorez cet e-mail.',
    },
    page: {
      title: 'Votre remboursement',
      amountOn: '{amount} sur le réseau {network}.',
      askTitle: 'Où devons-nous l’envoyer\u202f?',
      addressLabel: 'Votre adresse {network}',
      tagLabel: 'Tag de destination (si votre portefeuille ou votre plateforme d’échange vous en a donné un)',
      addressNote: 'Indiquez uniquement une adresse {network} que vous contrôlez.',
      review: 'Vérifier',
      confirmTitle: 'Confirmez l’adresse',
      confirmBody: 'Le remboursement sera envoyé à cette adresse. Une fois confirmée, elle ne peut plus être modifiée.',
      tag: 'Tag de destination',
      confirm: 'Confirmer et recevoir le remboursement ici',
      change: 'Modifier l’adresse',
      errors: {
        address: 'Ce n’est pas une adresse {network} valide\u00a0: vérifiez-la et réessayez.',
        noTag: 'Les adresses {network} ne prennent pas de tag de destination\u00a0: laissez ce champ vide.',
        tag: 'Un tag de destination est un nombre entier de 0 à 4294967295.',
        busy: 'Le service est occupé\u00a0: réessayez dans un instant.',
      },
      states: {
        ready: 'Adresse confirmée\u00a0: le remboursement y sera envoyé.',
        sent: 'Le remboursement est en route.',
        confirmed: 'Le remboursement est arrivé.',
        failed: 'Le remboursement n’a pas pu être envoyé\u00a0: le marchand vous contactera.',
        canceled: 'Le marchand a annulé ce remboursement.',
      },
      notFoundTitle: 'Ce lien de remboursement n’est pas valide',
      notFoundBody:
        'Il a expiré, a déjà servi à confirmer une adresse ou a été remplacé par un lien plus récent. Demandez-en un nouveau au marchand.',
    },
  },
  de: {
    exchangeNote: 'Die Einzahlungsadresse einer Börse nimmt Erstattungen möglicherweise nicht an.',
    mail: {
      subject: 'Erstattung über {amount} von {merchant}',
      intro: '{merchant} sendet Ihnen eine Erstattung über {amount} im Netzwerk {network}.',
      ask: 'Teilen Sie mit, wohin sie gehen soll: Öffnen Sie diesen Link und geben Sie eine {network}-Adresse an, über die Sie verfügen. Der Link funktioniert einmal, bis zum {date}.',
      button: 'Adresse für Ihre Erstattung angeben',
      ignore: 'Wenn Sie keine Erstattung erwartet haben, ignorieren Sie diese E-Mail.',
    },
    page: {
      title: 'Ihre Erstattung',
      amountOn: '{amount} im Netzwerk {network}.',
      askTitle: 'Wohin sollen wir sie senden?',
      addressLabel: 'Ihre {network}-Adresse',
      tagLabel: 'Destination Tag (falls Ihre Wallet oder Börse Ihnen einen gegeben hat)',
      addressNote: 'Geben Sie nur eine {network}-Adresse an, über die Sie selbst verfügen.',
      review: 'Prüfen',
      confirmTitle: 'Adresse bestätigen',
      confirmBody: 'Die Erstattung geht an diese Adresse. Nach der Bestätigung lässt sie sich nicht mehr ändern.',
      tag: 'Destination Tag',
      confirm: 'Bestätigen und die Erstattung hierhin erhalten',
      change: 'Adresse ändern',
      errors: {
        address: 'Das ist keine gültige {network}-Adresse: Prüfen Sie sie und versuchen Sie es erneut.',
        noTag: '{network}-Adressen haben keinen Destination Tag: Lassen Sie das Feld leer.',
        tag: 'Ein Destination Tag ist eine ganze Zahl von 0 bis 4294967295.',
        busy: 'Der Dienst ist gerade ausgelastet: Versuchen Sie es gleich noch einmal.',
      },
      states: {
        ready: 'Adresse bestätigt: Die Erstattung wird an sie gesendet.',
        sent: 'Die Erstattung ist unterwegs.',
        confirmed: 'Die Erstattung ist angekommen.',
        failed: 'Die Erstattung konnte nicht gesendet werden: Der Händler wird sich bei Ihnen melden.',
        canceled: 'Der Händler hat diese Erstattung storniert.',
      },
      notFoundTitle: 'Dieser Erstattungslink ist ungültig',
      notFoundBody:
        'Er ist abgelaufen, wurde schon zum Bestätigen einer Adresse verwendet oder durch einen neueren Link ersetzt. Bitten Sie den Händler um einen neuen.',
    },
  },
  it: {
    exchangeNote: 'L’indirizzo di deposito di un exchange potrebbe non accettare un rimborso.',
    mail: {
      subject: '{merchant} ti invia un rimborso di {amount}',
      intro: '{merchant} ti sta inviando un rimborso di {amount} sulla rete {network}.',
      ask: 'Indica dove inviarlo: apri questo link e inserisci un indirizzo {network} che controlli. Il link funziona una sola volta, fino al {date}.',
      button: 'Indica l’indirizzo per il tuo rimborso',
      ignore: 'Se non aspettavi un rimborso, ignora questa e-mail.',
    },
    page: {
      title: 'Il tuo rimborso',
      amountOn: '{amount} sulla rete {network}.',
      askTitle: 'Dove dobbiamo inviarlo?',
      addressLabel: 'Il tuo indirizzo {network}',
      tagLabel: 'Tag di destinazione (se il tuo wallet o exchange te ne ha dato uno)',
      addressNote: 'Inserisci solo un indirizzo {network} che controlli.',
      review: 'Verifica',
      confirmTitle: 'Conferma l’indirizzo',
      confirmBody: 'Il rimborso va a questo indirizzo. Dopo la conferma non si può più cambiare.',
      tag: 'Tag di destinazione',
      confirm: 'Conferma e ricevi qui il rimborso',
      change: 'Cambia indirizzo',
      errors: {
        address: 'Questo non è un indirizzo {network} valido: controllalo e riprova.',
        noTag: 'Gli indirizzi {network} non usano il tag di destinazione: lascia vuoto quel campo.',
        tag: 'Un tag di destinazione è un numero intero da 0 a 4294967295.',
        busy: 'Il servizio è occupato: riprova tra un momento.',
      },
      states: {
        ready: 'Indirizzo confermato: il rimborso verrà inviato lì.',
        sent: 'Il rimborso è in arrivo.',
        confirmed: 'Il rimborso è arrivato.',
        failed: 'Non è stato possibile inviare il rimborso: il venditore ti contatterà.',
        canceled: 'Il venditore ha annullato questo rimborso.',
      },
      notFoundTitle: 'Questo link di rimborso non è valido',
      notFoundBody:
        'È scaduto, è già stato usato per confermare un indirizzo o è stato sostituito da un link più recente. Chiedine uno nuovo al venditore.',
    },
  },
  tr: {
    exchangeNote: 'Bir borsanın yatırma adresi iadeleri kabul etmeyebilir.',
    mail: {
      subject: '{merchant} size {amount} iade ediyor',
      intro: '{merchant} size {network} ağında {amount} tutarında bir iade gönderiyor.',
      ask: 'Nereye gönderileceğini bildirin: bu bağlantıyı açın ve kontrolünüzdeki bir {network} adresi girin. Bağlantı {date} tarihine kadar yalnızca bir kez çalışır.',
      button: 'Adresinizi girin ve iadenizi alın',
      ignore: 'Bir iade beklemiyorsanız bu e-postayı yok sayın.',
    },
    page: {
      title: 'Para iadeniz',
      amountOn: '{network} ağında {amount}.',
      askTitle: 'Nereye gönderelim?',
      addressLabel: '{network} adresiniz',
      tagLabel: 'Hedef etiketi (cüzdanınız veya borsanız size verdiyse)',
      addressNote: 'Yalnızca kontrolünüzdeki bir {network} adresi girin.',
      review: 'Gözden geçir',
      confirmTitle: 'Adresi onaylayın',
      confirmBody: 'Para iadesi bu adrese gönderilir. Onayladıktan sonra değiştirilemez.',
      tag: 'Hedef etiketi',
      confirm: 'Onayla ve para iadesini bu adrese al',
      change: 'Adresi değiştir',
      errors: {
        address: 'Bu geçerli bir {network} adresi değil: kontrol edip yeniden deneyin.',
        noTag: '{network} adresleri hedef etiketi almaz: bu alanı boş bırakın.',
        tag: 'Hedef etiketi 0 ile 4294967295 arasında bir tam sayıdır.',
        busy: 'Hizmet şu anda meşgul: birazdan yeniden deneyin.',
      },
      states: {
        ready: 'Adres onaylandı: para iadesi bu adrese gönderilecek.',
        sent: 'Para iadesi yolda.',
        confirmed: 'Para iadesi ulaştı.',
        failed: 'Para iadesi gönderilemedi: satıcı sizinle iletişime geçecek.',
        canceled: 'Satıcı bu para iadesini iptal etti.',
      },
      notFoundTitle: 'Bu iade bağlantısı geçerli değil',
      notFoundBody:
        'Süresi doldu, bir adresi onaylamak için zaten kullanıldı veya daha yeni bir bağlantıyla değiştirildi. Satıcıdan yeni bir bağlantı isteyin.',
    },
  },
  ru: {
    exchangeNote: 'Адрес для депозита на бирже может не принимать возвраты.',
    mail: {
      subject: 'Возврат {amount} от {merchant}',
      intro: '{merchant} отправляет вам возврат {amount} в сети {network}.',
      ask: 'Сообщите, куда его отправить: откройте эту ссылку и укажите адрес {network}, которым вы управляете. Ссылка действует один раз, до {date}.',
      button: 'Указать адрес для возврата',
      ignore: 'Если вы не ждали возврата, просто не обращайте внимания на это письмо.',
    },
    page: {
      title: 'Ваш возврат',
      amountOn: '{amount} в сети {network}.',
      askTitle: 'Куда его отправить?',
      addressLabel: 'Ваш адрес {network}',
      tagLabel: 'Тег назначения (Destination Tag), если кошелёк или биржа дали его вам',
      addressNote: 'Указывайте только адрес {network}, которым управляете вы сами.',
      review: 'Проверить',
      confirmTitle: 'Подтвердите адрес',
      confirmBody: 'Возврат придёт на этот адрес. После подтверждения его нельзя изменить.',
      tag: 'Тег назначения (Destination Tag)',
      confirm: 'Подтвердить и получить возврат сюда',
      change: 'Изменить адрес',
      errors: {
        address: 'Это недействительный адрес {network}: проверьте его и попробуйте снова.',
        noTag: 'Адреса {network} не используют тег назначения (Destination Tag): оставьте это поле пустым.',
        tag: 'Тег назначения (Destination Tag) — целое число от 0 до 4294967295.',
        busy: 'Сервис сейчас занят: попробуйте ещё раз через минуту.',
      },
      states: {
        ready: 'Адрес подтверждён: возврат будет отправлен на него.',
        sent: 'Возврат уже в пути.',
        confirmed: 'Возврат поступил.',
        failed: 'Не удалось отправить возврат: продавец свяжется с вами.',
        canceled: 'Продавец отменил этот возврат.',
      },
      notFoundTitle: 'Эта ссылка на возврат недействительна',
      notFoundBody:
        'Срок её действия истёк, она уже использована для подтверждения адреса или заменена более новой ссылкой. Попросите у продавца новую.',
    },
  },
  uk: {
    exchangeNote: 'Адреса для депозиту на біржі може не приймати повернення коштів.',
    mail: {
      subject: 'Повернення {amount} від {merchant}',
      intro: '{merchant} надсилає вам повернення {amount} у мережі {network}.',
      ask: 'Повідомте, куди його надіслати: відкрийте це посилання й укажіть адресу {network}, якою ви керуєте. Посилання діє один раз, до {date}.',
      button: 'Указати адресу для повернення',
      ignore: 'Якщо ви не чекали на повернення коштів, не зважайте на цей лист.',
    },
    page: {
      title: 'Ваше повернення коштів',
      amountOn: '{amount} у мережі {network}.',
      askTitle: 'Куди його надіслати?',
      addressLabel: 'Ваша адреса {network}',
      tagLabel: 'Тег призначення (Destination Tag), якщо гаманець або біржа дали його вам',
      addressNote: 'Указуйте лише адресу {network}, якою керуєте ви самі.',
      review: 'Перевірити',
      confirmTitle: 'Підтвердьте адресу',
      confirmBody: 'Повернення надійде на цю адресу. Після підтвердження її не можна змінити.',
      tag: 'Тег призначення (Destination Tag)',
      confirm: 'Підтвердити й отримати повернення сюди',
      change: 'Змінити адресу',
      errors: {
        address: 'Це недійсна адреса {network}: перевірте її та спробуйте ще раз.',
        noTag: 'Адреси {network} не використовують тег призначення (Destination Tag): залиште це поле порожнім.',
        tag: 'Тег призначення (Destination Tag) — ціле число від 0 до 4294967295.',
        busy: 'Сервіс зараз зайнятий: спробуйте ще раз за хвилину.',
      },
      states: {
        ready: 'Адресу підтверджено: повернення буде надіслано на неї.',
        sent: 'Повернення вже в дорозі.',
        confirmed: 'Повернення надійшло.',
        failed: 'Не вдалося надіслати повернення: продавець звʼяжеться з вами.',
        canceled: 'Продавець скасував це повернення.',
      },
      notFoundTitle: 'Це посилання на повернення недійсне',
      notFoundBody:
        'Термін його дії минув, його вже використано для підтвердження адреси або замінено новішим посиланням. Попросіть у продавця нове.',
    },
  },
  zh: {
    exchangeNote: '交易所的充值地址可能不接受退款。',
    mail: {
      subject: '{merchant} 向您退款 {amount}',
      intro: '{merchant} 正在通过 {network} 网络向您发送 {amount} 的退款。',
      ask: '请告诉对方发送到哪里：打开此链接，填写一个由您控制的 {network} 地址。此链接只能使用一次，有效期至 {date}。',
      button: '填写退款地址',
      ignore: '如果您没有预期会收到退款，请忽略此邮件。',
    },
    page: {
      title: '您的退款',
      amountOn: '{network} 网络上的 {amount}。',
      askTitle: '我们应将退款发送到哪里？',
      addressLabel: '您的 {network} 地址',
      tagLabel: '目标标签（Destination Tag）：仅当您的钱包或交易所提供时填写',
      addressNote: '请只填写由您控制的 {network} 地址。',
      review: '检查',
      confirmTitle: '确认地址',
      confirmBody: '退款将发送到此地址。确认后无法更改。',
      tag: '目标标签（Destination Tag）',
      confirm: '确认并在此地址接收退款',
      change: '更改地址',
      errors: {
        address: '这不是有效的 {network} 地址：请检查后重试。',
        noTag: '{network} 地址不使用目标标签（Destination Tag）：请将此栏留空。',
        tag: '目标标签（Destination Tag）是 0 到 4294967295 之间的整数。',
        busy: '服务繁忙：请稍后重试。',
      },
      states: {
        ready: '地址已确认：退款将发送到此地址。',
        sent: '退款正在发送中。',
        confirmed: '退款已到账。',
        failed: '退款未能发送：商家会与您联系。',
        canceled: '商家已取消此退款。',
      },
      notFoundTitle: '此退款链接无效',
      notFoundBody: '链接已过期、已用于确认地址，或已被更新的链接取代。请向商家索取新链接。',
    },
  },
  ja: {
    exchangeNote: '取引所の入金アドレスでは返金を受け取れない場合があります。',
    mail: {
      subject: '{merchant} から {amount} の返金',
      intro: '{merchant} が {network} ネットワークで {amount} を返金します。',
      ask: '送金先をお知らせください。このリンクを開き、ご自身が管理する {network} アドレスを入力してください。リンクは {date} まで、1回だけ使えます。',
      button: '返金先のアドレスを入力する',
      ignore: '返金に心当たりがない場合は、このメールを無視してください。',
    },
    page: {
      title: 'あなたへの返金',
      amountOn: '{network} ネットワークで {amount}。',
      askTitle: '返金先はどこですか？',
      addressLabel: 'あなたの {network} アドレス',
      tagLabel: '宛先タグ（Destination Tag）：ウォレットまたは取引所から指定された場合のみ',
      addressNote: 'ご自身が管理する {network} アドレスだけを入力してください。',
      review: '入力内容を確認',
      confirmTitle: 'アドレスの確定',
      confirmBody: '返金はこのアドレスに送られます。確定すると変更できません。',
      tag: '宛先タグ（Destination Tag）',
      confirm: '確定してこのアドレスで返金を受け取る',
      change: 'アドレスを変更する',
      errors: {
        address: '有効な {network} アドレスではありません。確認してもう一度お試しください。',
        noTag: '{network} のアドレスに宛先タグ（Destination Tag）はありません。この欄は空のままにしてください。',
        tag: '宛先タグ（Destination Tag）は 0 から 4294967295 までの整数です。',
        busy: 'サービスが混み合っています。しばらくしてからもう一度お試しください。',
      },
      states: {
        ready: 'アドレスを確定しました。返金はこのアドレスに送られます。',
        sent: '返金を送金中です。',
        confirmed: '返金が届きました。',
        failed: '返金を送れませんでした。販売者から連絡があります。',
        canceled: '販売者がこの返金を取り消しました。',
      },
      notFoundTitle: 'この返金リンクは無効です',
      notFoundBody:
        '有効期限が切れたか、すでにアドレスの確定に使われたか、新しいリンクに置き換えられました。販売者に新しいリンクを依頼してください。',
    },
  },
  hi: {
    exchangeNote: 'किसी एक्सचेंज का डिपॉज़िट पता शायद रिफंड स्वीकार न करे।',
    mail: {
      subject: '{merchant} आपको {amount} का रिफंड भेज रहा है',
      intro: '{merchant} आपको {network} नेटवर्क पर {amount} का रिफंड भेज रहा है।',
      ask: 'बताएँ कि इसे कहाँ भेजना है: यह लिंक खोलें और अपने नियंत्रण वाला {network} पता दें। यह लिंक {date} तक, सिर्फ़ एक बार काम करता है।',
      button: 'अपने रिफंड के लिए पता दें',
      ignore: 'अगर आपको रिफंड की उम्मीद नहीं थी, तो इस ई-मेल को अनदेखा करें।',
    },
    page: {
      title: 'आपका रिफंड',
      amountOn: '{network} नेटवर्क पर {amount}।',
      askTitle: 'हम इसे कहाँ भेजें?',
      addressLabel: 'आपका {network} पता',
      tagLabel: 'डेस्टिनेशन टैग (Destination Tag), अगर आपके वॉलेट या एक्सचेंज ने दिया हो',
      addressNote: 'सिर्फ़ वही {network} पता दें जो आपके नियंत्रण में है।',
      review: 'जाँचें',
      confirmTitle: 'पते की पुष्टि करें',
      confirmBody: 'रिफंड इसी पते पर जाएगा। पुष्टि के बाद इसे बदला नहीं जा सकता।',
      tag: 'डेस्टिनेशन टैग (Destination Tag)',
      confirm: 'पुष्टि करें और रिफंड यहीं पाएँ',
      change: 'पता बदलें',
      errors: {
        address: 'यह मान्य {network} पता नहीं है: इसे जाँचें और फिर से कोशिश करें।',
        noTag: '{network} पतों में डेस्टिनेशन टैग (Destination Tag) नहीं होता: यह फ़ील्ड खाली छोड़ें।',
        tag: 'डेस्टिनेशन टैग (Destination Tag) 0 से 4294967295 तक की एक पूर्ण संख्या है।',
        busy: 'सेवा अभी व्यस्त है: थोड़ी देर में फिर से कोशिश करें।',
      },
      states: {
        ready: 'पते की पुष्टि हो गई: रिफंड इसी पर भेजा जाएगा।',
        sent: 'रिफंड रास्ते में है।',
        confirmed: 'रिफंड पहुँच गया है।',
        failed: 'रिफंड भेजा नहीं जा सका: व्यापारी आपसे संपर्क करेगा।',
        canceled: 'व्यापारी ने यह रिफंड रद्द कर दिया।',
      },
      notFoundTitle: 'यह रिफंड लिंक मान्य नहीं है',
      notFoundBody:
        'इसकी अवधि खत्म हो गई, इसका इस्तेमाल पहले ही किसी पते की पुष्टि के लिए हो चुका है, या इसकी जगह नया लिंक आ गया है। व्यापारी से नया लिंक माँगें।',
    },
  },
  vi: {
    exchangeNote: 'Địa chỉ nạp tiền của sàn giao dịch có thể không nhận khoản hoàn tiền.',
    mail: {
      subject: '{merchant} hoàn tiền cho bạn {amount}',
      intro: '{merchant} đang gửi cho bạn khoản hoàn tiền {amount} trên mạng {network}.',
      ask: 'Hãy cho biết nơi nhận: mở liên kết này và nhập một địa chỉ {network} do bạn kiểm soát. Liên kết chỉ dùng được một lần, đến hết {date}.',
      button: 'Nhập địa chỉ nhận hoàn tiền',
      ignore: 'Nếu bạn không chờ khoản hoàn tiền nào, hãy bỏ qua email này.',
    },
    page: {
      title: 'Khoản hoàn tiền của bạn',
      amountOn: '{amount} trên mạng {network}.',
      askTitle: 'Chúng tôi nên gửi đến đâu?',
      addressLabel: 'Địa chỉ {network} của bạn',
      tagLabel: 'Thẻ đích (Destination Tag), nếu ví hoặc sàn giao dịch của bạn cung cấp',
      addressNote: 'Chỉ nhập địa chỉ {network} do chính bạn kiểm soát.',
      review: 'Kiểm tra',
      confirmTitle: 'Xác nhận địa chỉ',
      confirmBody: 'Khoản hoàn tiền sẽ được gửi đến địa chỉ này. Sau khi xác nhận, bạn không thể thay đổi.',
      tag: 'Thẻ đích (Destination Tag)',
      confirm: 'Xác nhận và nhận hoàn tiền tại đây',
      change: 'Đổi địa chỉ',
      errors: {
        address: 'Đây không phải địa chỉ {network} hợp lệ: hãy kiểm tra và thử lại.',
        noTag: 'Địa chỉ {network} không dùng thẻ đích: hãy để trống ô này.',
        tag: 'Thẻ đích là một số nguyên từ 0 đến 4294967295.',
        busy: 'Dịch vụ đang bận: vui lòng thử lại sau giây lát.',
      },
      states: {
        ready: 'Đã xác nhận địa chỉ: khoản hoàn tiền sẽ được gửi đến đó.',
        sent: 'Khoản hoàn tiền đang được gửi.',
        confirmed: 'Khoản hoàn tiền đã đến.',
        failed: 'Không gửi được khoản hoàn tiền: người bán sẽ liên hệ với bạn.',
        canceled: 'Người bán đã hủy khoản hoàn tiền này.',
      },
      notFoundTitle: 'Liên kết hoàn tiền này không hợp lệ',
      notFoundBody:
        'Liên kết đã hết hạn, đã được dùng để xác nhận địa chỉ, hoặc đã được thay bằng liên kết mới hơn. Hãy xin người bán một liên kết mới.',
    },
  },
  id: {
    exchangeNote: 'Alamat deposit di bursa mungkin tidak menerima pengembalian dana.',
    mail: {
      subject: '{merchant} mengirim pengembalian dana {amount} kepada Anda',
      intro: '{merchant} mengirimkan pengembalian dana sebesar {amount} kepada Anda di jaringan {network}.',
      ask: 'Beri tahu ke mana harus dikirim: buka tautan ini dan masukkan alamat {network} yang Anda kendalikan. Tautan hanya berlaku sekali, sampai {date}.',
      button: 'Masukkan alamat untuk pengembalian dana Anda',
      ignore: 'Jika Anda tidak menantikan pengembalian dana, abaikan email ini.',
    },
    page: {
      title: 'Pengembalian dana Anda',
      amountOn: '{amount} di jaringan {network}.',
      askTitle: 'Ke mana kami harus mengirimnya?',
      addressLabel: 'Alamat {network} Anda',
      tagLabel: 'Tag tujuan (Destination Tag), jika dompet atau bursa Anda memberikannya',
      addressNote: 'Masukkan hanya alamat {network} yang Anda kendalikan sendiri.',
      review: 'Periksa',
      confirmTitle: 'Konfirmasi alamat',
      confirmBody: 'Pengembalian dana dikirim ke alamat ini. Setelah Anda konfirmasi, alamat tidak dapat diubah.',
      tag: 'Tag tujuan (Destination Tag)',
      confirm: 'Konfirmasi dan terima pengembalian dana di sini',
      change: 'Ubah alamat',
      errors: {
        address: 'Ini bukan alamat {network} yang valid: periksa lalu coba lagi.',
        noTag: 'Alamat {network} tidak memakai tag tujuan: kosongkan kolom itu.',
        tag: 'Tag tujuan adalah bilangan bulat dari 0 sampai 4294967295.',
        busy: 'Layanan sedang sibuk: coba lagi sebentar lagi.',
      },
      states: {
        ready: 'Alamat dikonfirmasi: pengembalian dana akan dikirim ke alamat ini.',
        sent: 'Pengembalian dana sedang dalam perjalanan.',
        confirmed: 'Pengembalian dana sudah tiba.',
        failed: 'Pengembalian dana tidak dapat dikirim: penjual akan menghubungi Anda.',
        canceled: 'Penjual membatalkan pengembalian dana ini.',
      },
      notFoundTitle: 'Tautan pengembalian dana ini tidak valid',
      notFoundBody:
        'Tautan ini sudah kedaluwarsa, sudah dipakai untuk mengonfirmasi alamat, atau sudah diganti dengan tautan yang lebih baru. Minta tautan baru kepada penjual.',
    },
  },
  ur: {
    exchangeNote: 'ہو سکتا ہے کسی ایکسچینج کا ڈپازٹ پتہ ریفنڈ قبول نہ کرے۔',
    mail: {
      subject: '{merchant} آپ کو {amount} کا ریفنڈ بھیج رہا ہے',
      intro: '{merchant} آپ کو {network} نیٹ ورک پر {amount} کا ریفنڈ بھیج رہا ہے۔',
      ask: 'بتائیں کہ اسے کہاں بھیجنا ہے: یہ لنک کھولیں اور اپنے کنٹرول والا {network} پتہ دیں۔ یہ لنک {date} تک صرف ایک بار کام کرتا ہے۔',
      button: 'اپنے ریفنڈ کے لیے پتہ دیں',
      ignore: 'اگر آپ کو ریفنڈ کی توقع نہیں تھی تو اس ای میل کو نظر انداز کریں۔',
    },
    page: {
      title: 'آپ کا ریفنڈ',
      amountOn: '{network} نیٹ ورک پر {amount}۔',
      askTitle: 'ہم اسے کہاں بھیجیں؟',
      addressLabel: 'آپ کا {network} پتہ',
      tagLabel: 'ڈیسٹینیشن ٹیگ (Destination Tag)، اگر آپ کے والیٹ یا ایکسچینج نے دیا ہو',
      addressNote: 'صرف وہی {network} پتہ دیں جو آپ کے کنٹرول میں ہو۔',
      review: 'جانچیں',
      confirmTitle: 'پتے کی تصدیق کریں',
      confirmBody: 'ریفنڈ اسی پتے پر جائے گا۔ تصدیق کے بعد اسے بدلا نہیں جا سکتا۔',
      tag: 'ڈیسٹینیشن ٹیگ (Destination Tag)',
      confirm: 'تصدیق کریں اور ریفنڈ یہیں وصول کریں',
      change: 'پتہ بدلیں',
      errors: {
        address: 'یہ درست {network} پتہ نہیں ہے: اسے جانچیں اور دوبارہ کوشش کریں۔',
        noTag: '{network} پتوں میں ڈیسٹینیشن ٹیگ (Destination Tag) نہیں ہوتا: یہ خانہ خالی چھوڑ دیں۔',
        tag: 'ڈیسٹینیشن ٹیگ (Destination Tag) 0 سے 4294967295 تک کا ایک پورا عدد ہے۔',
        busy: 'سروس اس وقت مصروف ہے: تھوڑی دیر بعد دوبارہ کوشش کریں۔',
      },
      states: {
        ready: 'پتے کی تصدیق ہو گئی: ریفنڈ اسی پر بھیجا جائے گا۔',
        sent: 'ریفنڈ راستے میں ہے۔',
        confirmed: 'ریفنڈ پہنچ گیا ہے۔',
        failed: 'ریفنڈ نہیں بھیجا جا سکا: تاجر آپ سے رابطہ کرے گا۔',
        canceled: 'تاجر نے یہ ریفنڈ منسوخ کر دیا۔',
      },
      notFoundTitle: 'یہ ریفنڈ لنک درست نہیں ہے',
      notFoundBody:
        'اس کی میعاد ختم ہو گئی، یہ پہلے ہی کسی پتے کی تصدیق کے لیے استعمال ہو چکا ہے، یا اس کی جگہ نیا لنک آ گیا ہے۔ تاجر سے نیا لنک مانگیں۔',
    },
  },
  'zh-Hant': {
    exchangeNote: '交易所的入金地址可能不接受退款。',
    mail: {
      subject: '{merchant} 向您退款 {amount}',
      intro: '{merchant} 正透過 {network} 網路向您傳送 {amount} 的退款。',
      ask: '請告訴對方要傳送到哪裡：開啟此連結，填寫一個由您控制的 {network} 地址。此連結只能使用一次，有效期限至 {date}。',
      button: '填寫退款地址',
      ignore: '如果您沒有預期會收到退款，請忽略此郵件。',
    },
    page: {
      title: '您的退款',
      amountOn: '{network} 網路上的 {amount}。',
      askTitle: '我們應將退款傳送到哪裡？',
      addressLabel: '您的 {network} 地址',
      tagLabel: '目標標籤（Destination Tag）：僅在您的錢包或交易所提供時填寫',
      addressNote: '請只填寫由您控制的 {network} 地址。',
      review: '檢查',
      confirmTitle: '確認地址',
      confirmBody: '退款將傳送到此地址。確認後無法變更。',
      tag: '目標標籤（Destination Tag）',
      confirm: '確認並在此地址接收退款',
      change: '變更地址',
      errors: {
        address: '這不是有效的 {network} 地址：請檢查後再試一次。',
        noTag: '{network} 地址不使用目標標籤（Destination Tag）：請將此欄留空。',
        tag: '目標標籤（Destination Tag）是 0 到 4294967295 之間的整數。',
        busy: '服務忙碌中：請稍後再試。',
      },
      states: {
        ready: '地址已確認：退款將傳送到此地址。',
        sent: '退款正在傳送中。',
        confirmed: '退款已入帳。',
        failed: '退款未能送出：商家會與您聯絡。',
        canceled: '商家已取消此退款。',
      },
      notFoundTitle: '此退款連結無效',
      notFoundBody: '連結已過期、已用於確認地址，或已被較新的連結取代。請向商家索取新連結。',
    },
  },
  ko: {
    exchangeNote: '거래소의 입금 주소는 환불을 받지 못할 수 있습니다.',
    mail: {
      subject: '{merchant}의 {amount} 환불 안내',
      intro: '{merchant}에서 {network} 네트워크로 {amount}을(를) 환불해 드립니다.',
      ask: '받을 곳을 알려 주세요. 이 링크를 열고 본인이 관리하는 {network} 주소를 입력하세요. 링크는 {date}까지 한 번만 사용할 수 있습니다.',
      button: '환불받을 주소 입력하기',
      ignore: '환불을 예상하지 않았다면 이 이메일을 무시하세요.',
    },
    page: {
      title: '환불 안내',
      amountOn: '{network} 네트워크의 {amount}.',
      askTitle: '어디로 보내 드릴까요?',
      addressLabel: '내 {network} 주소',
      tagLabel: '데스티네이션 태그(Destination Tag): 지갑이나 거래소에서 받은 경우에만 입력',
      addressNote: '본인이 관리하는 {network} 주소만 입력하세요.',
      review: '검토',
      confirmTitle: '주소 확인',
      confirmBody: '환불은 이 주소로 보내집니다. 확인한 뒤에는 바꿀 수 없습니다.',
      tag: '데스티네이션 태그(Destination Tag)',
      confirm: '확인하고 이 주소로 환불받기',
      change: '주소 변경',
      errors: {
        address: '유효한 {network} 주소가 아닙니다. 확인한 뒤 다시 시도하세요.',
        noTag: '{network} 주소에는 데스티네이션 태그(Destination Tag)가 없습니다. 이 칸은 비워 두세요.',
        tag: '데스티네이션 태그(Destination Tag)는 0부터 4294967295까지의 정수입니다.',
        busy: '서비스가 혼잡합니다. 잠시 후 다시 시도하세요.',
      },
      states: {
        ready: '주소가 확인되었습니다. 환불이 이 주소로 보내집니다.',
        sent: '환불이 전송 중입니다.',
        confirmed: '환불이 도착했습니다.',
        failed: '환불을 보내지 못했습니다. 판매자가 연락드릴 것입니다.',
        canceled: '판매자가 이 환불을 취소했습니다.',
      },
      notFoundTitle: '유효하지 않은 환불 링크입니다',
      notFoundBody:
        '링크가 만료되었거나, 이미 주소 확인에 사용되었거나, 새 링크로 대체되었습니다. 판매자에게 새 링크를 요청하세요.',
    },
  },
};
