/**
 * The subscriber's texts (lib/subscriptions, docs/subscriptions.md): the subscriber mails and the
 * subscriber's page, in the payment page's languages (lib/pay/i18n LANGUAGES). Placeholders:
 * `{plan}` the plan's name, `{price}` one period's price, `{start}` a period's first day,
 * `{deadline}` the last day before the subscription ends unpaid, `{date}` the day it ended,
 * `{days}` how long a mail's link works, `{merchant}` the merchant's name. Every language has every
 * text: lib/pay/i18n.test.ts checks every `*messages.ts` table under lib/.
 */
import type { Language } from '../pay/i18n';

interface MailText {
  title: string;
  body: string;
}

export interface SubscriptionMessages {
  mail: {
    started: MailText;
    invoice: MailText;
    pastDue: MailText;
    canceled: MailText;
    payInvoice: string;
    openPage: string;
    linkValid: string;
    why: string;
  };
  page: {
    title: string;
    statuses: { trialing: string; active: string; past_due: string; canceled: string };
    plan: string;
    price: string;
    paidUntil: string;
    credit: string;
    payOpen: string;
    periods: string;
    payAhead: string;
    reactivate: string;
    cancel: string;
    cancelQuestion: string;
    cancelConfirm: string;
    canceled: string;
    linkGone: string;
  };
}

export const SUBSCRIPTION_MESSAGES: Record<Language, SubscriptionMessages> = {
  en: {
    mail: {
      started: {
        title: 'Your subscription to {plan}',
        body: 'Thank you for subscribing. It costs {price} per period; the first paid period starts on {start}.',
      },
      invoice: {
        title: 'Your invoice for {plan}',
        body: 'The period starting on {start} costs {price}. Pay it by {deadline} to keep your subscription.',
      },
      pastDue: {
        title: 'Your payment for {plan} is overdue',
        body: 'The period that started on {start} is not paid yet. Pay {price} by {deadline}, or your subscription ends.',
      },
      canceled: {
        title: 'Your subscription to {plan} has ended',
        body: 'It ended on {date}. You can start it again at any time by paying on your subscription page.',
      },
      payInvoice: 'Pay the invoice',
      openPage: 'Open your subscription page',
      linkValid: 'The link to your subscription page works for {days} days.',
      why: 'You get this e-mail because this address subscribed to {plan} with {merchant}.',
    },
    page: {
      title: 'Your subscription',
      statuses: { trialing: 'Free trial', active: 'Active', past_due: 'Payment overdue', canceled: 'Ended' },
      plan: 'Plan',
      price: 'Price per period',
      paidUntil: 'Paid until',
      credit: 'Periods paid ahead',
      payOpen: 'Pay the open invoice',
      periods: 'Number of periods',
      payAhead: 'Pay ahead',
      reactivate: 'Start again: pay one period',
      cancel: 'Cancel the subscription',
      cancelQuestion:
        'Cancel your subscription? No more invoices will be sent, and periods paid ahead are not paid back.',
      cancelConfirm: 'Yes, cancel it',
      canceled: 'Your subscription is canceled.',
      linkGone: 'This link has expired or was already used. Open the link in your latest e-mail.',
    },
  },
  es: {
    mail: {
      started: {
        title: 'Tu suscripción a {plan}',
        body: 'Gracias por suscribirte. Cuesta {price} por período; el primer período pagado empieza el {start}.',
      },
      invoice: {
        title: 'Tu factura de {plan}',
        body: 'El período que empieza el {start} cuesta {price}. Págalo antes del {deadline} para mantener tu suscripción.',
      },
      pastDue: {
        title: 'Tu pago de {plan} está atrasado',
        body: 'El período que empezó el {start} aún no está pagado. Paga {price} antes del {deadline} o tu suscripción terminará.',
      },
      canceled: {
        title: 'Tu suscripción a {plan} terminó',
        body: 'Terminó el {date}. Puedes reanudarla cuando quieras pagando en la página de tu suscripción.',
      },
      payInvoice: 'Pagar la factura',
      openPage: 'Abrir la página de tu suscripción',
      linkValid: 'El enlace a la página de tu suscripción funciona durante {days} días.',
      why: 'Recibes este correo porque esta dirección se suscribió a {plan} con {merchant}.',
    },
    page: {
      title: 'Tu suscripción',
      statuses: { trialing: 'Prueba gratuita', active: 'Activa', past_due: 'Pago atrasado', canceled: 'Terminada' },
      plan: 'Plan',
      price: 'Precio por período',
      paidUntil: 'Pagada hasta',
      credit: 'Períodos pagados por adelantado',
      payOpen: 'Pagar la factura pendiente',
      periods: 'Número de períodos',
      payAhead: 'Pagar por adelantado',
      reactivate: 'Reanudar: pagar un período',
      cancel: 'Cancelar la suscripción',
      cancelQuestion:
        '¿Cancelar tu suscripción? No se enviarán más facturas y los períodos pagados por adelantado no se devuelven.',
      cancelConfirm: 'Sí, cancelarla',
      canceled: 'Tu suscripción está cancelada.',
      linkGone: 'Este enlace venció o ya se usó. Abre el enlace de tu correo más reciente.',
    },
  },
  ar: {
    mail: {
      started: {
        title: 'اشتراكك في {plan}',
        body: 'شكرًا لاشتراكك. التكلفة {price} لكل فترة، وتبدأ أول فترة مدفوعة في {start}.',
      },
      invoice: {
        title: 'فاتورتك لـ {plan}',
        body: 'الفترة التي تبدأ في {start} تكلف {price}. ادفعها قبل {deadline} للحفاظ على اشتراكك.',
      },
      pastDue: {
        title: 'تأخر دفعك لـ {plan}',
        body: 'الفترة التي بدأت في {start} لم تُدفع بعد. ادفع {price} قبل {deadline} وإلا سينتهي اشتراكك.',
      },
      canceled: {
        title: 'انتهى اشتراكك في {plan}',
        body: 'انتهى في {date}. يمكنك استئنافه في أي وقت بالدفع من صفحة اشتراكك.',
      },
      payInvoice: 'ادفع الفاتورة',
      openPage: 'افتح صفحة اشتراكك',
      linkValid: 'يعمل رابط صفحة اشتراكك لمدة {days} يومًا.',
      why: 'تصلك هذه الرسالة لأن هذا العنوان اشترك في {plan} لدى {merchant}.',
    },
    page: {
      title: 'اشتراكك',
      statuses: { trialing: 'تجربة مجانية', active: 'نشط', past_due: 'الدفع متأخر', canceled: 'منتهٍ' },
      plan: 'الخطة',
      price: 'السعر لكل فترة',
      paidUntil: 'مدفوع حتى',
      credit: 'فترات مدفوعة مسبقًا',
      payOpen: 'ادفع الفاتورة المفتوحة',
      periods: 'عدد الفترات',
      payAhead: 'ادفع مسبقًا',
      reactivate: 'استأنف: ادفع فترة واحدة',
      cancel: 'ألغِ الاشتراك',
      cancelQuestion: 'هل تريد إلغاء اشتراكك؟ لن تُرسل فواتير أخرى، ولن تُعاد قيمة الفترات المدفوعة مسبقًا.',
      cancelConfirm: 'نعم، ألغِه',
      canceled: 'تم إلغاء اشتراكك.',
      linkGone: 'انتهت صلاحية هذا الرابط أو سبق استخدامه. افتح الرابط في أحدث رسالة وصلتك.',
    },
  },
  pt: {
    mail: {
      started: {
        title: 'Sua assinatura de {plan}',
        body: 'Obrigado por assinar. Custa {price} por período; o primeiro período pago começa em {start}.',
      },
      invoice: {
        title: 'Sua fatura de {plan}',
        body: 'O período que começa em {start} custa {price}. Pague até {deadline} para manter sua assinatura.',
      },
      pastDue: {
        title: 'Seu pagamento de {plan} está atrasado',
        body: 'O período que começou em {start} ainda não foi pago. Pague {price} até {deadline}, ou sua assinatura termina.',
      },
      canceled: {
        title: 'Sua assinatura de {plan} terminou',
        body: 'Terminou em {date}. Você pode retomá-la a qualquer momento pagando na página da sua assinatura.',
      },
      payInvoice: 'Pagar a fatura',
      openPage: 'Abrir a página da sua assinatura',
      linkValid: 'O link para a página da sua assinatura funciona por {days} dias.',
      why: 'Você recebe este e-mail porque este endereço assinou {plan} com {merchant}.',
    },
    page: {
      title: 'Sua assinatura',
      statuses: { trialing: 'Teste gratuito', active: 'Ativa', past_due: 'Pagamento atrasado', canceled: 'Terminada' },
      plan: 'Plano',
      price: 'Preço por período',
      paidUntil: 'Paga até',
      credit: 'Períodos pagos adiantados',
      payOpen: 'Pagar a fatura em aberto',
      periods: 'Número de períodos',
      payAhead: 'Pagar adiantado',
      reactivate: 'Retomar: pagar um período',
      cancel: 'Cancelar a assinatura',
      cancelQuestion:
        'Cancelar sua assinatura? Nenhuma fatura será enviada, e os períodos pagos adiantados não são devolvidos.',
      cancelConfirm: 'Sim, cancelar',
      canceled: 'Sua assinatura está cancelada.',
      linkGone: 'Este link expirou ou já foi usado. Abra o link do seu e-mail mais recente.',
    },
  },
  fr: {
    mail: {
      started: {
        title: 'Votre abonnement à {plan}',
        body: 'Merci pour votre abonnement. Il coûte {price} par période\u00a0; la première période payée commence le {start}.',
      },
      invoice: {
        title: 'Votre facture pour {plan}',
        body: 'La période qui commence le {start} coûte {price}. Payez-la avant le {deadline} pour garder votre abonnement.',
      },
      pastDue: {
        title: 'Votre paiement pour {plan} est en retard',
        body: 'La période commencée le {start} n’est pas encore payée. Payez {price} avant le {deadline}, sinon votre abonnement prend fin.',
      },
      canceled: {
        title: 'Votre abonnement à {plan} a pris fin',
        body: 'Il a pris fin le {date}. Vous pouvez le reprendre à tout moment en payant sur la page de votre abonnement.',
      },
      payInvoice: 'Payer la facture',
      openPage: 'Ouvrir la page de votre abonnement',
      linkValid: 'Le lien vers la page de votre abonnement fonctionne pendant {days}\u00a0jours.',
      why: 'Vous recevez cet e-mail car cette adresse s’est abonnée à {plan} chez {merchant}.',
    },
    page: {
      title: 'Votre abonnement',
      statuses: { trialing: 'Essai gratuit', active: 'Actif', past_due: 'Paiement en retard', canceled: 'Terminé' },
      plan: 'Formule',
      price: 'Prix par période',
      paidUntil: 'Payé jusqu’au',
      credit: 'Périodes payées d’avance',
      payOpen: 'Payer la facture en attente',
      periods: 'Nombre de périodes',
      payAhead: 'Payer d’avance',
      reactivate: 'Reprendre\u00a0: payer une période',
      cancel: 'Résilier l’abonnement',
      cancelQuestion:
        'Résilier votre abonnement\u00a0? Aucune facture ne sera plus envoyée, et les périodes payées d’avance ne sont pas rendues.',
      cancelConfirm: 'Oui, résilier',
      canceled: 'Votre abonnement est résilié.',
      linkGone: 'Ce lien a expiré ou a déjà servi. Ouvrez le lien de votre e-mail le plus récent.',
    },
  },
  de: {
    mail: {
      started: {
        title: 'Ihr Abonnement für {plan}',
        body: 'Danke für Ihr Abonnement. Es kostet {price} pro Zeitraum; der erste bezahlte Zeitraum beginnt am {start}.',
      },
      invoice: {
        title: 'Ihre Rechnung für {plan}',
        body: 'Der Zeitraum ab {start} kostet {price}. Bezahlen Sie bis {deadline}, um Ihr Abonnement zu behalten.',
      },
      pastDue: {
        title: 'Ihre Zahlung für {plan} ist überfällig',
        body: 'Der Zeitraum ab {start} ist noch nicht bezahlt. Bezahlen Sie {price} bis {deadline}, sonst endet Ihr Abonnement.',
      },
      canceled: {
        title: 'Ihr Abonnement für {plan} ist beendet',
        body: 'Es endete am {date}. Sie können es jederzeit wieder aufnehmen, indem Sie auf Ihrer Abonnementseite bezahlen.',
      },
      payInvoice: 'Rechnung bezahlen',
      openPage: 'Ihre Abonnementseite öffnen',
      linkValid: 'Der Link zu Ihrer Abonnementseite funktioniert {days} Tage lang.',
      why: 'Sie erhalten diese E-Mail, weil diese Adresse {plan} bei {merchant} abonniert hat.',
    },
    page: {
      title: 'Ihr Abonnement',
      statuses: {
        trialing: 'Kostenlose Testphase',
        active: 'Aktiv',
        past_due: 'Zahlung überfällig',
        canceled: 'Beendet',
      },
      plan: 'Tarif',
      price: 'Preis pro Zeitraum',
      paidUntil: 'Bezahlt bis',
      credit: 'Im Voraus bezahlte Zeiträume',
      payOpen: 'Offene Rechnung bezahlen',
      periods: 'Anzahl der Zeiträume',
      payAhead: 'Im Voraus bezahlen',
      reactivate: 'Wieder aufnehmen: einen Zeitraum bezahlen',
      cancel: 'Abonnement kündigen',
      cancelQuestion:
        'Ihr Abonnement kündigen? Es werden keine Rechnungen mehr gesendet, und im Voraus bezahlte Zeiträume werden nicht erstattet.',
      cancelConfirm: 'Ja, kündigen',
      canceled: 'Ihr Abonnement ist gekündigt.',
      linkGone: 'Dieser Link ist abgelaufen oder wurde schon benutzt. Öffnen Sie den Link aus Ihrer neuesten E-Mail.',
    },
  },
  it: {
    mail: {
      started: {
        title: 'Il tuo abbonamento a {plan}',
        body: 'Grazie per esserti abbonato. Costa {price} per periodo; il primo periodo pagato inizia il {start}.',
      },
      invoice: {
        title: 'La tua fattura per {plan}',
        body: 'Il periodo che inizia il {start} costa {price}. Pagalo entro il {deadline} per mantenere il tuo abbonamento.',
      },
      pastDue: {
        title: 'Il tuo pagamento per {plan} è in ritardo',
        body: 'Il periodo iniziato il {start} non è ancora pagato. Paga {price} entro il {deadline}, altrimenti il tuo abbonamento termina.',
      },
      canceled: {
        title: 'Il tuo abbonamento a {plan} è terminato',
        body: 'È terminato il {date}. Puoi riprenderlo in qualsiasi momento pagando dalla pagina del tuo abbonamento.',
      },
      payInvoice: 'Paga la fattura',
      openPage: 'Apri la pagina del tuo abbonamento',
      linkValid: 'Il link alla pagina del tuo abbonamento funziona per {days} giorni.',
      why: 'Ricevi questa e-mail perché questo indirizzo si è abbonato a {plan} presso {merchant}.',
    },
    page: {
      title: 'Il tuo abbonamento',
      statuses: {
        trialing: 'Prova gratuita',
        active: 'Attivo',
        past_due: 'Pagamento in ritardo',
        canceled: 'Terminato',
      },
      plan: 'Piano',
      price: 'Prezzo per periodo',
      paidUntil: 'Pagato fino al',
      credit: 'Periodi pagati in anticipo',
      payOpen: 'Paga la fattura aperta',
      periods: 'Numero di periodi',
      payAhead: 'Paga in anticipo',
      reactivate: 'Riprendi: paga un periodo',
      cancel: "Annulla l'abbonamento",
      cancelQuestion:
        'Annullare il tuo abbonamento? Non verranno inviate altre fatture e i periodi pagati in anticipo non vengono restituiti.',
      cancelConfirm: 'Sì, annulla',
      canceled: 'Il tuo abbonamento è annullato.',
      linkGone: "Questo link è scaduto o è già stato usato. Apri il link dell'e-mail più recente.",
    },
  },
  tr: {
    mail: {
      started: {
        title: '{plan} aboneliğiniz',
        body: 'Abone olduğunuz için teşekkürler. Dönem başına {price} tutarındadır; ilk ücretli dönem {start} tarihinde başlar.',
      },
      invoice: {
        title: '{plan} faturanız',
        body: '{start} tarihinde başlayan dönem {price} tutarındadır. Aboneliğinizi korumak için {deadline} tarihine kadar ödeyin.',
      },
      pastDue: {
        title: '{plan} ödemeniz gecikti',
        body: '{start} tarihinde başlayan dönem henüz ödenmedi. {deadline} tarihine kadar {price} ödeyin, yoksa aboneliğiniz sona erer.',
      },
      canceled: {
        title: '{plan} aboneliğiniz sona erdi',
        body: '{date} tarihinde sona erdi. Abonelik sayfanızda ödeme yaparak istediğiniz zaman yeniden başlatabilirsiniz.',
      },
      payInvoice: 'Faturayı öde',
      openPage: 'Abonelik sayfanızı açın',
      linkValid: 'Abonelik sayfanızın bağlantısı {days} gün boyunca çalışır.',
      why: 'Bu e-postayı, bu adres {merchant} üzerinden {plan} aboneliğine kaydolduğu için alıyorsunuz.',
    },
    page: {
      title: 'Aboneliğiniz',
      statuses: { trialing: 'Ücretsiz deneme', active: 'Etkin', past_due: 'Ödeme gecikti', canceled: 'Sona erdi' },
      plan: 'Plan',
      price: 'Dönem başına fiyat',
      paidUntil: 'Şu tarihe kadar ödendi',
      credit: 'Önceden ödenen dönemler',
      payOpen: 'Açık faturayı öde',
      periods: 'Dönem sayısı',
      payAhead: 'Önceden öde',
      reactivate: 'Yeniden başlat: bir dönem öde',
      cancel: 'Aboneliği iptal et',
      cancelQuestion:
        'Aboneliğiniz iptal edilsin mi? Başka fatura gönderilmez ve önceden ödenen dönemler geri ödenmez.',
      cancelConfirm: 'Evet, iptal et',
      canceled: 'Aboneliğiniz iptal edildi.',
      linkGone: 'Bu bağlantının süresi doldu veya zaten kullanıldı. En son e-postanızdaki bağlantıyı açın.',
    },
  },
  ru: {
    mail: {
      started: {
        title: 'Ваша подписка на {plan}',
        body: 'Спасибо за подписку. Она стоит {price} за период; первый оплачиваемый период начинается {start}.',
      },
      invoice: {
        title: 'Ваш счёт за {plan}',
        body: 'Период, начинающийся {start}, стоит {price}. Оплатите его до {deadline}, чтобы сохранить подписку.',
      },
      pastDue: {
        title: 'Оплата {plan} просрочена',
        body: 'Период, начавшийся {start}, ещё не оплачен. Оплатите {price} до {deadline}, иначе подписка закончится.',
      },
      canceled: {
        title: 'Ваша подписка на {plan} закончилась',
        body: 'Она закончилась {date}. Вы можете возобновить её в любое время, оплатив на странице подписки.',
      },
      payInvoice: 'Оплатить счёт',
      openPage: 'Открыть страницу подписки',
      linkValid: 'Ссылка на страницу подписки действует {days} дней.',
      why: 'Вы получили это письмо, потому что этот адрес подписан на {plan} у {merchant}.',
    },
    page: {
      title: 'Ваша подписка',
      statuses: {
        trialing: 'Бесплатный пробный период',
        active: 'Активна',
        past_due: 'Оплата просрочена',
        canceled: 'Закончилась',
      },
      plan: 'Тариф',
      price: 'Цена за период',
      paidUntil: 'Оплачено до',
      credit: 'Периоды, оплаченные вперёд',
      payOpen: 'Оплатить открытый счёт',
      periods: 'Число периодов',
      payAhead: 'Оплатить вперёд',
      reactivate: 'Возобновить: оплатить один период',
      cancel: 'Отменить подписку',
      cancelQuestion:
        'Отменить подписку? Новые счета не будут приходить, а периоды, оплаченные вперёд, не возвращаются.',
      cancelConfirm: 'Да, отменить',
      canceled: 'Ваша подписка отменена.',
      linkGone: 'Срок действия ссылки истёк, или она уже использована. Откройте ссылку из последнего письма.',
    },
  },
  uk: {
    mail: {
      started: {
        title: 'Ваша підписка на {plan}',
        body: 'Дякуємо за підписку. Вона коштує {price} за період; перший оплачуваний період починається {start}.',
      },
      invoice: {
        title: 'Ваш рахунок за {plan}',
        body: 'Період, що починається {start}, коштує {price}. Сплатіть його до {deadline}, щоб зберегти підписку.',
      },
      pastDue: {
        title: 'Оплату {plan} прострочено',
        body: 'Період, що почався {start}, ще не сплачено. Сплатіть {price} до {deadline}, інакше підписка закінчиться.',
      },
      canceled: {
        title: 'Ваша підписка на {plan} закінчилася',
        body: 'Вона закінчилася {date}. Ви можете відновити її будь-коли, сплативши на сторінці підписки.',
      },
      payInvoice: 'Сплатити рахунок',
      openPage: 'Відкрити сторінку підписки',
      linkValid: 'Посилання на сторінку підписки діє {days} днів.',
      why: 'Ви отримали цей лист, бо цю адресу підписано на {plan} у {merchant}.',
    },
    page: {
      title: 'Ваша підписка',
      statuses: {
        trialing: 'Безкоштовний пробний період',
        active: 'Активна',
        past_due: 'Оплату прострочено',
        canceled: 'Закінчилася',
      },
      plan: 'Тариф',
      price: 'Ціна за період',
      paidUntil: 'Сплачено до',
      credit: 'Періоди, сплачені наперед',
      payOpen: 'Сплатити відкритий рахунок',
      periods: 'Кількість періодів',
      payAhead: 'Сплатити наперед',
      reactivate: 'Відновити: сплатити один період',
      cancel: 'Скасувати підписку',
      cancelQuestion:
        'Скасувати підписку? Нові рахунки не надходитимуть, а періоди, сплачені наперед, не повертаються.',
      cancelConfirm: 'Так, скасувати',
      canceled: 'Вашу підписку скасовано.',
      linkGone: 'Термін дії посилання минув, або його вже використано. Відкрийте посилання з останнього листа.',
    },
  },
  zh: {
    mail: {
      started: {
        title: '您订阅了 {plan}',
        body: '感谢您的订阅。每个周期 {price}；第一个付费周期从 {start} 开始。',
      },
      invoice: {
        title: '您的 {plan} 账单',
        body: '从 {start} 开始的周期费用为 {price}。请在 {deadline} 前支付以保留订阅。',
      },
      pastDue: {
        title: '您的 {plan} 付款已逾期',
        body: '从 {start} 开始的周期尚未支付。请在 {deadline} 前支付 {price}，否则订阅将结束。',
      },
      canceled: {
        title: '您的 {plan} 订阅已结束',
        body: '订阅已于 {date} 结束。您可以随时在订阅页面付款以重新开始。',
      },
      payInvoice: '支付账单',
      openPage: '打开您的订阅页面',
      linkValid: '订阅页面的链接在 {days} 天内有效。',
      why: '您收到此邮件，是因为此地址在 {merchant} 订阅了 {plan}。',
    },
    page: {
      title: '您的订阅',
      statuses: { trialing: '免费试用', active: '有效', past_due: '付款逾期', canceled: '已结束' },
      plan: '方案',
      price: '每个周期的价格',
      paidUntil: '已付至',
      credit: '已预付的周期',
      payOpen: '支付待付账单',
      periods: '周期数',
      payAhead: '预付',
      reactivate: '重新开始：支付一个周期',
      cancel: '取消订阅',
      cancelQuestion: '要取消订阅吗？之后不会再发送账单，已预付的周期不予退还。',
      cancelConfirm: '是的，取消',
      canceled: '您的订阅已取消。',
      linkGone: '此链接已过期或已被使用。请打开您最新邮件中的链接。',
    },
  },
  ja: {
    mail: {
      started: {
        title: '{plan} のご登録',
        body: 'ご登録ありがとうございます。料金は 1 期間あたり {price} で、最初の有料期間は {start} に始まります。',
      },
      invoice: {
        title: '{plan} の請求書',
        body: '{start} に始まる期間の料金は {price} です。登録を続けるには {deadline} までにお支払いください。',
      },
      pastDue: {
        title: '{plan} のお支払いが期限を過ぎています',
        body: '{start} に始まった期間はまだ支払われていません。{deadline} までに {price} をお支払いください。期限を過ぎると登録は終了します。',
      },
      canceled: {
        title: '{plan} の登録が終了しました',
        body: '{date} に終了しました。登録ページでお支払いいただくと、いつでも再開できます。',
      },
      payInvoice: '請求書を支払う',
      openPage: '登録ページを開く',
      linkValid: '登録ページへのリンクは {days} 日間有効です。',
      why: 'このアドレスが {merchant} の {plan} に登録されているため、このメールをお送りしています。',
    },
    page: {
      title: 'ご登録内容',
      statuses: { trialing: '無料お試し', active: '有効', past_due: '支払い期限切れ', canceled: '終了' },
      plan: 'プラン',
      price: '1 期間あたりの料金',
      paidUntil: '支払い済みの期限',
      credit: '前払い済みの期間',
      payOpen: '未払いの請求書を支払う',
      periods: '期間の数',
      payAhead: '前払いする',
      reactivate: '再開する：1 期間分を支払う',
      cancel: '登録を解約する',
      cancelQuestion: '登録を解約しますか？今後請求書は送られず、前払い済みの期間分は返金されません。',
      cancelConfirm: 'はい、解約します',
      canceled: '登録を解約しました。',
      linkGone: 'このリンクは期限切れか、すでに使用されています。最新のメールのリンクを開いてください。',
    },
  },
  hi: {
    mail: {
      started: {
        title: '{plan} की आपकी सदस्यता',
        body: 'सदस्यता लेने के लिए धन्यवाद। इसकी कीमत हर अवधि के लिए {price} है; पहली भुगतान वाली अवधि {start} को शुरू होती है।',
      },
      invoice: {
        title: '{plan} का आपका बिल',
        body: '{start} को शुरू होने वाली अवधि की कीमत {price} है। अपनी सदस्यता बनाए रखने के लिए {deadline} तक भुगतान करें।',
      },
      pastDue: {
        title: '{plan} का आपका भुगतान बकाया है',
        body: '{start} को शुरू हुई अवधि का अभी भुगतान नहीं हुआ है। {deadline} तक {price} का भुगतान करें, नहीं तो आपकी सदस्यता समाप्त हो जाएगी।',
      },
      canceled: {
        title: '{plan} की आपकी सदस्यता समाप्त हो गई',
        body: 'यह {date} को समाप्त हुई। आप अपनी सदस्यता के पेज पर भुगतान करके इसे कभी भी फिर से शुरू कर सकते हैं।',
      },
      payInvoice: 'बिल का भुगतान करें',
      openPage: 'अपनी सदस्यता का पेज खोलें',
      linkValid: 'आपकी सदस्यता के पेज का लिंक {days} दिन तक काम करता है।',
      why: 'आपको यह ईमेल इसलिए मिला क्योंकि इस पते ने {merchant} के साथ {plan} की सदस्यता ली है।',
    },
    page: {
      title: 'आपकी सदस्यता',
      statuses: { trialing: 'मुफ़्त ट्रायल', active: 'सक्रिय', past_due: 'भुगतान बकाया', canceled: 'समाप्त' },
      plan: 'प्लान',
      price: 'हर अवधि की कीमत',
      paidUntil: 'इस तारीख तक भुगतान हो चुका',
      credit: 'पहले से भुगतान की गई अवधियाँ',
      payOpen: 'खुले बिल का भुगतान करें',
      periods: 'अवधियों की संख्या',
      payAhead: 'पहले से भुगतान करें',
      reactivate: 'फिर से शुरू करें: एक अवधि का भुगतान करें',
      cancel: 'सदस्यता रद्द करें',
      cancelQuestion:
        'अपनी सदस्यता रद्द करें? इसके बाद कोई बिल नहीं भेजा जाएगा, और पहले से भुगतान की गई अवधियों का पैसा वापस नहीं मिलेगा।',
      cancelConfirm: 'हाँ, रद्द करें',
      canceled: 'आपकी सदस्यता रद्द हो गई है।',
      linkGone: 'यह लिंक समाप्त हो गया है या पहले ही इस्तेमाल हो चुका है। अपने सबसे नए ईमेल का लिंक खोलें।',
    },
  },
  vi: {
    mail: {
      started: {
        title: 'Gói đăng ký {plan} của bạn',
        body: 'Cảm ơn bạn đã đăng ký. Giá là {price} mỗi kỳ; kỳ trả phí đầu tiên bắt đầu vào {start}.',
      },
      invoice: {
        title: 'Hóa đơn {plan} của bạn',
        body: 'Kỳ bắt đầu vào {start} có giá {price}. Hãy thanh toán trước {deadline} để giữ gói đăng ký.',
      },
      pastDue: {
        title: 'Khoản thanh toán {plan} của bạn đã quá hạn',
        body: 'Kỳ bắt đầu vào {start} vẫn chưa được thanh toán. Hãy thanh toán {price} trước {deadline}, nếu không gói đăng ký sẽ kết thúc.',
      },
      canceled: {
        title: 'Gói đăng ký {plan} của bạn đã kết thúc',
        body: 'Gói đã kết thúc vào {date}. Bạn có thể bắt đầu lại bất cứ lúc nào bằng cách thanh toán trên trang đăng ký của bạn.',
      },
      payInvoice: 'Thanh toán hóa đơn',
      openPage: 'Mở trang đăng ký của bạn',
      linkValid: 'Liên kết đến trang đăng ký của bạn có hiệu lực trong {days} ngày.',
      why: 'Bạn nhận được email này vì địa chỉ này đã đăng ký {plan} với {merchant}.',
    },
    page: {
      title: 'Gói đăng ký của bạn',
      statuses: {
        trialing: 'Dùng thử miễn phí',
        active: 'Đang hoạt động',
        past_due: 'Quá hạn thanh toán',
        canceled: 'Đã kết thúc',
      },
      plan: 'Gói',
      price: 'Giá mỗi kỳ',
      paidUntil: 'Đã thanh toán đến',
      credit: 'Số kỳ đã trả trước',
      payOpen: 'Thanh toán hóa đơn đang mở',
      periods: 'Số kỳ',
      payAhead: 'Trả trước',
      reactivate: 'Bắt đầu lại: thanh toán một kỳ',
      cancel: 'Hủy gói đăng ký',
      cancelQuestion:
        'Hủy gói đăng ký của bạn? Sẽ không còn hóa đơn nào được gửi, và các kỳ đã trả trước không được hoàn lại.',
      cancelConfirm: 'Có, hủy gói',
      canceled: 'Gói đăng ký của bạn đã bị hủy.',
      linkGone: 'Liên kết này đã hết hạn hoặc đã được dùng. Hãy mở liên kết trong email mới nhất của bạn.',
    },
  },
  id: {
    mail: {
      started: {
        title: 'Langganan {plan} Anda',
        body: 'Terima kasih telah berlangganan. Biayanya {price} per periode; periode berbayar pertama dimulai pada {start}.',
      },
      invoice: {
        title: 'Tagihan {plan} Anda',
        body: 'Periode yang dimulai pada {start} berbiaya {price}. Bayar sebelum {deadline} agar langganan Anda tetap berjalan.',
      },
      pastDue: {
        title: 'Pembayaran {plan} Anda terlambat',
        body: 'Periode yang dimulai pada {start} belum dibayar. Bayar {price} sebelum {deadline}, atau langganan Anda berakhir.',
      },
      canceled: {
        title: 'Langganan {plan} Anda telah berakhir',
        body: 'Langganan berakhir pada {date}. Anda dapat memulainya lagi kapan saja dengan membayar di halaman langganan Anda.',
      },
      payInvoice: 'Bayar tagihan',
      openPage: 'Buka halaman langganan Anda',
      linkValid: 'Tautan ke halaman langganan Anda berlaku selama {days} hari.',
      why: 'Anda menerima email ini karena alamat ini berlangganan {plan} di {merchant}.',
    },
    page: {
      title: 'Langganan Anda',
      statuses: {
        trialing: 'Uji coba gratis',
        active: 'Aktif',
        past_due: 'Pembayaran terlambat',
        canceled: 'Berakhir',
      },
      plan: 'Paket',
      price: 'Harga per periode',
      paidUntil: 'Dibayar sampai',
      credit: 'Periode yang dibayar di muka',
      payOpen: 'Bayar tagihan yang terbuka',
      periods: 'Jumlah periode',
      payAhead: 'Bayar di muka',
      reactivate: 'Mulai lagi: bayar satu periode',
      cancel: 'Batalkan langganan',
      cancelQuestion:
        'Batalkan langganan Anda? Tidak ada lagi tagihan yang dikirim, dan periode yang dibayar di muka tidak dikembalikan.',
      cancelConfirm: 'Ya, batalkan',
      canceled: 'Langganan Anda dibatalkan.',
      linkGone: 'Tautan ini sudah kedaluwarsa atau sudah dipakai. Buka tautan di email terbaru Anda.',
    },
  },
  ur: {
    mail: {
      started: {
        title: '{plan} کی آپ کی رکنیت',
        body: 'رکنیت لینے کا شکریہ۔ اس کی قیمت ہر مدت کے لیے {price} ہے؛ پہلی ادا شدہ مدت {start} کو شروع ہوتی ہے۔',
      },
      invoice: {
        title: '{plan} کا آپ کا بل',
        body: '{start} کو شروع ہونے والی مدت کی قیمت {price} ہے۔ اپنی رکنیت برقرار رکھنے کے لیے {deadline} تک ادائیگی کریں۔',
      },
      pastDue: {
        title: '{plan} کی آپ کی ادائیگی میں تاخیر ہو گئی ہے',
        body: '{start} کو شروع ہونے والی مدت کی ادائیگی ابھی نہیں ہوئی۔ {deadline} تک {price} ادا کریں، ورنہ آپ کی رکنیت ختم ہو جائے گی۔',
      },
      canceled: {
        title: '{plan} کی آپ کی رکنیت ختم ہو گئی',
        body: 'یہ {date} کو ختم ہوئی۔ آپ اپنی رکنیت کے صفحے پر ادائیگی کر کے اسے کسی بھی وقت دوبارہ شروع کر سکتے ہیں۔',
      },
      payInvoice: 'بل ادا کریں',
      openPage: 'اپنی رکنیت کا صفحہ کھولیں',
      linkValid: 'آپ کی رکنیت کے صفحے کا لنک {days} دن تک کام کرتا ہے۔',
      why: 'آپ کو یہ ای میل اس لیے ملی کیونکہ اس پتے نے {merchant} کے ساتھ {plan} کی رکنیت لی ہے۔',
    },
    page: {
      title: 'آپ کی رکنیت',
      statuses: { trialing: 'مفت آزمائش', active: 'فعال', past_due: 'ادائیگی میں تاخیر', canceled: 'ختم' },
      plan: 'پلان',
      price: 'ہر مدت کی قیمت',
      paidUntil: 'اس تاریخ تک ادا شدہ',
      credit: 'پیشگی ادا شدہ مدتیں',
      payOpen: 'کھلا بل ادا کریں',
      periods: 'مدتوں کی تعداد',
      payAhead: 'پیشگی ادا کریں',
      reactivate: 'دوبارہ شروع کریں: ایک مدت ادا کریں',
      cancel: 'رکنیت منسوخ کریں',
      cancelQuestion:
        'اپنی رکنیت منسوخ کریں؟ اس کے بعد کوئی بل نہیں بھیجا جائے گا، اور پیشگی ادا شدہ مدتوں کی رقم واپس نہیں ہو گی۔',
      cancelConfirm: 'ہاں، منسوخ کریں',
      canceled: 'آپ کی رکنیت منسوخ ہو گئی ہے۔',
      linkGone: 'اس لنک کی میعاد ختم ہو گئی ہے یا یہ پہلے ہی استعمال ہو چکا ہے۔ اپنی تازہ ترین ای میل کا لنک کھولیں۔',
    },
  },
  'zh-Hant': {
    mail: {
      started: {
        title: '您訂閱了 {plan}',
        body: '感謝您的訂閱。每個週期 {price}；第一個付費週期從 {start} 開始。',
      },
      invoice: {
        title: '您的 {plan} 帳單',
        body: '從 {start} 開始的週期費用為 {price}。請在 {deadline} 前付款以保留訂閱。',
      },
      pastDue: {
        title: '您的 {plan} 付款已逾期',
        body: '從 {start} 開始的週期尚未付款。請在 {deadline} 前支付 {price}，否則訂閱將結束。',
      },
      canceled: {
        title: '您的 {plan} 訂閱已結束',
        body: '訂閱已於 {date} 結束。您可以隨時在訂閱頁面付款以重新開始。',
      },
      payInvoice: '支付帳單',
      openPage: '開啟您的訂閱頁面',
      linkValid: '訂閱頁面的連結在 {days} 天內有效。',
      why: '您收到此郵件，是因為此地址在 {merchant} 訂閱了 {plan}。',
    },
    page: {
      title: '您的訂閱',
      statuses: { trialing: '免費試用', active: '有效', past_due: '付款逾期', canceled: '已結束' },
      plan: '方案',
      price: '每個週期的價格',
      paidUntil: '已付至',
      credit: '已預付的週期',
      payOpen: '支付待付帳單',
      periods: '週期數',
      payAhead: '預付',
      reactivate: '重新開始：支付一個週期',
      cancel: '取消訂閱',
      cancelQuestion: '要取消訂閱嗎？之後不會再寄送帳單，已預付的週期不予退還。',
      cancelConfirm: '是的，取消',
      canceled: '您的訂閱已取消。',
      linkGone: '此連結已過期或已被使用。請開啟您最新郵件中的連結。',
    },
  },
  ko: {
    mail: {
      started: {
        title: '{plan} 구독',
        body: '구독해 주셔서 감사합니다. 기간당 {price}이며, 첫 유료 기간은 {start}에 시작됩니다.',
      },
      invoice: {
        title: '{plan} 청구서',
        body: '{start}에 시작하는 기간의 요금은 {price}입니다. 구독을 유지하려면 {deadline}까지 결제하세요.',
      },
      pastDue: {
        title: '{plan} 결제가 연체되었습니다',
        body: '{start}에 시작된 기간이 아직 결제되지 않았습니다. {deadline}까지 {price}을(를) 결제하지 않으면 구독이 종료됩니다.',
      },
      canceled: {
        title: '{plan} 구독이 종료되었습니다',
        body: '{date}에 종료되었습니다. 구독 페이지에서 결제하면 언제든지 다시 시작할 수 있습니다.',
      },
      payInvoice: '청구서 결제',
      openPage: '구독 페이지 열기',
      linkValid: '구독 페이지 링크는 {days}일 동안 유효합니다.',
      why: '이 주소가 {merchant}에서 {plan}을(를) 구독했기 때문에 이 이메일을 받으셨습니다.',
    },
    page: {
      title: '내 구독',
      statuses: { trialing: '무료 체험', active: '활성', past_due: '결제 연체', canceled: '종료됨' },
      plan: '요금제',
      price: '기간당 가격',
      paidUntil: '결제 완료 기한',
      credit: '선결제한 기간',
      payOpen: '미결제 청구서 결제',
      periods: '기간 수',
      payAhead: '선결제',
      reactivate: '다시 시작: 한 기간 결제',
      cancel: '구독 취소',
      cancelQuestion: '구독을 취소할까요? 더 이상 청구서가 발송되지 않으며, 선결제한 기간은 돌려드리지 않습니다.',
      cancelConfirm: '예, 취소합니다',
      canceled: '구독이 취소되었습니다.',
      linkGone: '이 링크는 만료되었거나 이미 사용되었습니다. 가장 최근 이메일의 링크를 여세요.',
    },
  },
};
