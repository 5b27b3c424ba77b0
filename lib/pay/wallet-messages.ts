/**
 * The texts of the payment page's "Pay with wallet" button (components/pay/wallet-*.tsx), in the
 * twelve languages of the payment page. Kept apart from ./messages so that the button's part can
 * land on its own; the server picks one language and hands its texts to the button as props, so
 * the browser never gets the other eleven.
 *
 * `{network}` and `{chainId}` are filled in on the server (./format interpolate). Every language
 * has every text: lib/pay/i18n.test.ts checks each messages table under lib/pay.
 */

import type { Language } from './i18n';

export interface WalletMessages {
  /** The button. */
  payWithWallet: string;
  /** While the wallet shows its prompts. */
  confirmInWallet: string;
  /** After the wallet accepted the transaction; followed by the transaction id. */
  sent: string;
  /** The shopper declined a request (EIP-1193 error 4001). */
  refused: string;
  /** The wallet is on another chain and did not switch to the order's. */
  wrongChain: string;
  /** The wallet does not know the order's chain (error 4902): it must be added by hand. */
  unknownChain: string;
  /** The wallet already has a request open (error -32002). */
  busy: string;
  /** Anything else: the wallet or the node refused to send. */
  failed: string;
}

export const WALLET_MESSAGES: Record<Language, WalletMessages> = {
  en: {
    payWithWallet: 'Pay with wallet',
    confirmInWallet: 'Confirm the payment in your wallet.',
    sent: 'Sent from your wallet. This page updates when the network confirms it. Transaction:',
    refused: 'The request was declined in your wallet. Nothing was sent.',
    wrongChain: 'Your wallet is on another network. Switch it to {network} and try again.',
    unknownChain:
      'Your wallet does not know {network} (chain id {chainId}). Add this network to your wallet, or pay with the QR code or the address.',
    busy: 'Your wallet already has a request open. Open your wallet to finish or close it.',
    failed:
      'Your wallet could not send the payment. Nothing was sent; you can try again or pay with the QR code or the address.',
  },
  es: {
    payWithWallet: 'Pagar con billetera',
    confirmInWallet: 'Confirma el pago en tu billetera.',
    sent: 'Enviado desde tu billetera. Esta página se actualiza cuando la red lo confirme. Transacción:',
    refused: 'La solicitud fue rechazada en tu billetera. No se envió nada.',
    wrongChain: 'Tu billetera está en otra red. Cámbiala a {network} e inténtalo de nuevo.',
    unknownChain:
      'Tu billetera no conoce {network} (ID de cadena {chainId}). Agrega esta red a tu billetera, o paga con el código QR o la dirección.',
    busy: 'Tu billetera ya tiene una solicitud abierta. Abre tu billetera para terminarla o cerrarla.',
    failed:
      'Tu billetera no pudo enviar el pago. No se envió nada; puedes intentarlo de nuevo o pagar con el código QR o la dirección.',
  },
  ar: {
    payWithWallet: 'ادفع بالمحفظة',
    confirmInWallet: 'أكّد الدفع في محفظتك.',
    sent: 'أُرسل من محفظتك. يتم تحديث هذه الصفحة عندما تؤكّده الشبكة. المعاملة:',
    refused: 'رُفض الطلب في محفظتك. لم يُرسل شيء.',
    wrongChain: 'محفظتك على شبكة أخرى. بدّلها إلى {network} ثم حاول مرة أخرى.',
    unknownChain:
      'محفظتك لا تعرف {network} (معرّف السلسلة {chainId}). أضف هذه الشبكة إلى محفظتك، أو ادفع برمز QR أو بالعنوان.',
    busy: 'لدى محفظتك طلب مفتوح بالفعل. افتح محفظتك لإنهائه أو إغلاقه.',
    failed: 'تعذّر على محفظتك إرسال الدفعة. لم يُرسل شيء؛ يمكنك المحاولة مرة أخرى أو الدفع برمز QR أو بالعنوان.',
  },
  pt: {
    payWithWallet: 'Pagar com carteira',
    confirmInWallet: 'Confirme o pagamento na sua carteira.',
    sent: 'Enviado da sua carteira. Esta página é atualizada quando a rede confirmar. Transação:',
    refused: 'A solicitação foi recusada na sua carteira. Nada foi enviado.',
    wrongChain: 'Sua carteira está em outra rede. Mude para {network} e tente novamente.',
    unknownChain:
      'Sua carteira não conhece {network} (ID da rede {chainId}). Adicione essa rede à sua carteira ou pague com o QR code ou o endereço.',
    busy: 'Sua carteira já tem uma solicitação aberta. Abra a carteira para concluí-la ou fechá-la.',
    failed:
      'Sua carteira não conseguiu enviar o pagamento. Nada foi enviado; tente novamente ou pague com o QR code ou o endereço.',
  },
  fr: {
    payWithWallet: 'Payer avec le portefeuille',
    confirmInWallet: 'Confirmez le paiement dans votre portefeuille.',
    sent: 'Envoyé depuis votre portefeuille. Cette page se met à jour quand le réseau le confirme. Transaction\u00a0:',
    refused: 'La demande a été refusée dans votre portefeuille. Rien n’a été envoyé.',
    wrongChain: 'Votre portefeuille est sur un autre réseau. Passez sur {network} et réessayez.',
    unknownChain:
      'Votre portefeuille ne connaît pas {network} (identifiant de chaîne {chainId}). Ajoutez ce réseau à votre portefeuille, ou payez avec le code QR ou l’adresse.',
    busy: 'Votre portefeuille a déjà une demande ouverte. Ouvrez-le pour la terminer ou la fermer.',
    failed:
      'Votre portefeuille n’a pas pu envoyer le paiement. Rien n’a été envoyé\u202f; réessayez ou payez avec le code QR ou l’adresse.',
  },
  de: {
    payWithWallet: 'Mit Wallet bezahlen',
    confirmInWallet: 'Bestätigen Sie die Zahlung in Ihrer Wallet.',
    sent: 'Aus Ihrer Wallet gesendet. Diese Seite aktualisiert sich, sobald das Netzwerk sie bestätigt. Transaktion:',
    refused: 'Die Anfrage wurde in Ihrer Wallet abgelehnt. Es wurde nichts gesendet.',
    wrongChain: 'Ihre Wallet ist in einem anderen Netzwerk. Wechseln Sie zu {network} und versuchen Sie es erneut.',
    unknownChain:
      'Ihre Wallet kennt {network} (Chain-ID {chainId}) nicht. Fügen Sie dieses Netzwerk Ihrer Wallet hinzu oder bezahlen Sie mit dem QR-Code oder der Adresse.',
    busy: 'Ihre Wallet hat bereits eine offene Anfrage. Öffnen Sie die Wallet, um sie abzuschließen oder zu schließen.',
    failed:
      'Ihre Wallet konnte die Zahlung nicht senden. Es wurde nichts gesendet; versuchen Sie es erneut oder bezahlen Sie mit dem QR-Code oder der Adresse.',
  },
  it: {
    payWithWallet: 'Paga con il wallet',
    confirmInWallet: 'Conferma il pagamento nel tuo wallet.',
    sent: 'Inviato dal tuo wallet. Questa pagina si aggiorna quando la rete lo conferma. Transazione:',
    refused: 'La richiesta è stata rifiutata nel tuo wallet. Non è stato inviato nulla.',
    wrongChain: 'Il tuo wallet è su un’altra rete. Passa a {network} e riprova.',
    unknownChain:
      'Il tuo wallet non conosce {network} (ID catena {chainId}). Aggiungi questa rete al wallet, oppure paga con il codice QR o l’indirizzo.',
    busy: 'Il tuo wallet ha già una richiesta aperta. Apri il wallet per completarla o chiuderla.',
    failed:
      'Il tuo wallet non è riuscito a inviare il pagamento. Non è stato inviato nulla; riprova o paga con il codice QR o l’indirizzo.',
  },
  tr: {
    payWithWallet: 'Cüzdanla öde',
    confirmInWallet: 'Ödemeyi cüzdanınızda onaylayın.',
    sent: 'Cüzdanınızdan gönderildi. Ağ onayladığında bu sayfa güncellenir. İşlem:',
    refused: 'İstek cüzdanınızda reddedildi. Hiçbir şey gönderilmedi.',
    wrongChain: 'Cüzdanınız başka bir ağda. {network} ağına geçip yeniden deneyin.',
    unknownChain:
      'Cüzdanınız {network} ağını (zincir kimliği {chainId}) tanımıyor. Bu ağı cüzdanınıza ekleyin ya da QR kodu veya adresle ödeyin.',
    busy: 'Cüzdanınızda zaten açık bir istek var. Tamamlamak veya kapatmak için cüzdanınızı açın.',
    failed:
      'Cüzdanınız ödemeyi gönderemedi. Hiçbir şey gönderilmedi; yeniden deneyin ya da QR kodu veya adresle ödeyin.',
  },
  ru: {
    payWithWallet: 'Оплатить кошельком',
    confirmInWallet: 'Подтвердите платёж в кошельке.',
    sent: 'Отправлено из вашего кошелька. Страница обновится, когда сеть подтвердит платёж. Транзакция:',
    refused: 'Запрос отклонён в кошельке. Ничего не отправлено.',
    wrongChain: 'Кошелёк подключён к другой сети. Переключите его на {network} и попробуйте снова.',
    unknownChain:
      'Кошелёк не знает сеть {network} (chain id {chainId}). Добавьте эту сеть в кошелёк или оплатите по QR-коду или адресу.',
    busy: 'В кошельке уже открыт запрос. Откройте кошелёк, чтобы завершить или закрыть его.',
    failed:
      'Кошелёк не смог отправить платёж. Ничего не отправлено; попробуйте снова или оплатите по QR-коду или адресу.',
  },
  uk: {
    payWithWallet: 'Сплатити гаманцем',
    confirmInWallet: 'Підтвердьте платіж у гаманці.',
    sent: 'Надіслано з вашого гаманця. Сторінка оновиться, коли мережа підтвердить платіж. Транзакція:',
    refused: 'Запит відхилено в гаманці. Нічого не надіслано.',
    wrongChain: 'Гаманець підключено до іншої мережі. Перемкніть його на {network} і спробуйте знову.',
    unknownChain:
      'Гаманець не знає мережу {network} (chain id {chainId}). Додайте цю мережу до гаманця або сплатіть за QR-кодом чи адресою.',
    busy: 'У гаманці вже відкрито запит. Відкрийте гаманець, щоб завершити або закрити його.',
    failed:
      'Гаманець не зміг надіслати платіж. Нічого не надіслано; спробуйте знову або сплатіть за QR-кодом чи адресою.',
  },
  zh: {
    payWithWallet: '用钱包支付',
    confirmInWallet: '请在钱包中确认付款。',
    sent: '已从您的钱包发送。网络确认后本页面会自动更新。交易：',
    refused: '您在钱包中拒绝了请求。未发送任何款项。',
    wrongChain: '您的钱包连接的是其他网络。请切换到 {network} 后重试。',
    unknownChain: '您的钱包不认识 {network}（链 ID {chainId}）。请在钱包中添加该网络，或使用二维码或地址付款。',
    busy: '您的钱包已有一个待处理的请求。请打开钱包完成或关闭它。',
    failed: '您的钱包未能发送付款。未发送任何款项；您可以重试，或使用二维码或地址付款。',
  },
  ja: {
    payWithWallet: 'ウォレットで支払う',
    confirmInWallet: 'ウォレットで支払いを確認してください。',
    sent: 'ウォレットから送信しました。ネットワークで承認されるとこのページが更新されます。トランザクション：',
    refused: 'ウォレットでリクエストが拒否されました。何も送信されていません。',
    wrongChain: 'ウォレットが別のネットワークに接続されています。{network} に切り替えてもう一度お試しください。',
    unknownChain:
      'ウォレットが {network}（チェーン ID {chainId}）を認識していません。このネットワークをウォレットに追加するか、QR コードまたはアドレスで支払ってください。',
    busy: 'ウォレットで別のリクエストが開いています。ウォレットを開いて完了するか閉じてください。',
    failed:
      'ウォレットから支払いを送信できませんでした。何も送信されていません。もう一度お試しいただくか、QR コードまたはアドレスで支払ってください。',
  },
};

/** The texts in `language` (the page's); lib/pay/i18n.test.ts checks every language has them all. */
export function walletMessages(language: Language): WalletMessages {
  return WALLET_MESSAGES[language];
}
