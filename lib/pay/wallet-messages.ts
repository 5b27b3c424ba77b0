/**
 * The texts of the payment page's "Pay with wallet" button (components/pay/wallet-*.tsx), in the
 * languages of the payment page. Kept apart from ./messages so that the button's part can
 * land on its own; the server picks one language and hands its texts to the button as props, so
 * the browser never gets the others.
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
  /** After the wallet accepted the transaction; `{tx}` is its id (the punctuation before it is the language's). */
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
    sent: 'Sent from your wallet. This page updates when the network confirms it. Transaction: {tx}',
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
    sent: 'Enviado desde tu billetera. Esta página se actualiza cuando la red lo confirme. Transacción: {tx}',
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
    sent: 'أُرسل من محفظتك. يتم تحديث هذه الصفحة عندما تؤكّده الشبكة. المعاملة: {tx}',
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
    sent: 'Enviado da sua carteira. Esta página é atualizada quando a rede confirmar. Transação: {tx}',
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
    sent: 'Envoyé depuis votre portefeuille. Cette page se met à jour quand le réseau le confirme. Transaction\u00a0: {tx}',
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
    sent: 'Aus Ihrer Wallet gesendet. Diese Seite aktualisiert sich, sobald das Netzwerk sie bestätigt. Transaktion: {tx}',
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
    sent: 'Inviato dal tuo wallet. Questa pagina si aggiorna quando la rete lo conferma. Transazione: {tx}',
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
    sent: 'Cüzdanınızdan gönderildi. Ağ onayladığında bu sayfa güncellenir. İşlem: {tx}',
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
    sent: 'Отправлено из вашего кошелька. Страница обновится, когда сеть подтвердит платёж. Транзакция: {tx}',
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
    sent: 'Надіслано з вашого гаманця. Сторінка оновиться, коли мережа підтвердить платіж. Транзакція: {tx}',
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
    sent: '已从您的钱包发送。网络确认后本页面会自动更新。交易：{tx}',
    refused: '您在钱包中拒绝了请求。未发送任何款项。',
    wrongChain: '您的钱包连接的是其他网络。请切换到 {network} 后重试。',
    unknownChain: '您的钱包不认识 {network}（链 ID {chainId}）。请在钱包中添加该网络，或使用二维码或地址付款。',
    busy: '您的钱包已有一个待处理的请求。请打开钱包完成或关闭它。',
    failed: '您的钱包未能发送付款。未发送任何款项；您可以重试，或使用二维码或地址付款。',
  },
  ja: {
    payWithWallet: 'ウォレットで支払う',
    confirmInWallet: 'ウォレットで支払いを確認してください。',
    sent: 'ウォレットから送信しました。ネットワークで承認されるとこのページが更新されます。トランザクション：{tx}',
    refused: 'ウォレットでリクエストが拒否されました。何も送信されていません。',
    wrongChain: 'ウォレットが別のネットワークに接続されています。{network} に切り替えてもう一度お試しください。',
    unknownChain:
      'ウォレットが {network}（チェーン ID {chainId}）を認識していません。このネットワークをウォレットに追加するか、QR コードまたはアドレスで支払ってください。',
    busy: 'ウォレットで別のリクエストが開いています。ウォレットを開いて完了するか閉じてください。',
    failed:
      'ウォレットから支払いを送信できませんでした。何も送信されていません。もう一度お試しいただくか、QR コードまたはアドレスで支払ってください。',
  },
  hi: {
    payWithWallet: 'वॉलेट से भुगतान करें',
    confirmInWallet: 'अपने वॉलेट में भुगतान की पुष्टि करें।',
    sent: 'आपके वॉलेट से भेजा गया। नेटवर्क की पुष्टि होने पर यह पेज अपडेट हो जाएगा। ट्रांज़ैक्शन: {tx}',
    refused: 'आपके वॉलेट में अनुरोध अस्वीकार कर दिया गया। कुछ नहीं भेजा गया।',
    wrongChain: 'आपका वॉलेट किसी दूसरे नेटवर्क पर है। इसे {network} पर बदलें और फिर कोशिश करें।',
    unknownChain:
      'आपका वॉलेट {network} (चेन आईडी {chainId}) को नहीं जानता। यह नेटवर्क अपने वॉलेट में जोड़ें, या QR कोड या पते से भुगतान करें।',
    busy: 'आपके वॉलेट में पहले से एक अनुरोध खुला है। उसे पूरा करने या बंद करने के लिए अपना वॉलेट खोलें।',
    failed: 'आपका वॉलेट भुगतान नहीं भेज सका। कुछ नहीं भेजा गया; आप फिर कोशिश कर सकते हैं या QR कोड या पते से भुगतान कर सकते हैं।',
  },
  vi: {
    payWithWallet: 'Thanh toán bằng ví',
    confirmInWallet: 'Hãy xác nhận thanh toán trong ví của bạn.',
    sent: 'Đã gửi từ ví của bạn. Trang này sẽ cập nhật khi mạng xác nhận. Giao dịch: {tx}',
    refused: 'Yêu cầu đã bị từ chối trong ví của bạn. Chưa có gì được gửi.',
    wrongChain: 'Ví của bạn đang ở mạng khác. Hãy chuyển sang {network} rồi thử lại.',
    unknownChain:
      'Ví của bạn chưa biết mạng {network} (chain ID {chainId}). Hãy thêm mạng này vào ví, hoặc thanh toán bằng mã QR hay địa chỉ.',
    busy: 'Ví của bạn đang có một yêu cầu chưa xử lý. Hãy mở ví để hoàn tất hoặc đóng yêu cầu đó.',
    failed:
      'Ví của bạn không gửi được khoản thanh toán. Chưa có gì được gửi; bạn có thể thử lại hoặc thanh toán bằng mã QR hay địa chỉ.',
  },
  id: {
    payWithWallet: 'Bayar dengan dompet',
    confirmInWallet: 'Konfirmasikan pembayaran di dompet Anda.',
    sent: 'Terkirim dari dompet Anda. Halaman ini diperbarui saat jaringan mengonfirmasinya. Transaksi: {tx}',
    refused: 'Permintaan ditolak di dompet Anda. Tidak ada yang dikirim.',
    wrongChain: 'Dompet Anda ada di jaringan lain. Pindahkan ke {network} lalu coba lagi.',
    unknownChain:
      'Dompet Anda tidak mengenal {network} (chain ID {chainId}). Tambahkan jaringan ini ke dompet Anda, atau bayar dengan kode QR atau alamat.',
    busy: 'Dompet Anda sudah memiliki permintaan yang terbuka. Buka dompet Anda untuk menyelesaikan atau menutupnya.',
    failed:
      'Dompet Anda tidak dapat mengirim pembayaran. Tidak ada yang dikirim; Anda bisa mencoba lagi atau membayar dengan kode QR atau alamat.',
  },
  ur: {
    payWithWallet: 'والیٹ سے ادائیگی کریں',
    confirmInWallet: 'اپنے والیٹ میں ادائیگی کی تصدیق کریں۔',
    sent: 'آپ کے والیٹ سے بھیج دی گئی۔ نیٹ ورک کی تصدیق پر یہ صفحہ اپ ڈیٹ ہو جائے گا۔ ٹرانزیکشن: {tx}',
    refused: 'آپ کے والیٹ میں درخواست مسترد کر دی گئی۔ کچھ نہیں بھیجا گیا۔',
    wrongChain: 'آپ کا والیٹ کسی دوسرے نیٹ ورک پر ہے۔ اسے {network} پر منتقل کریں اور دوبارہ کوشش کریں۔',
    unknownChain:
      'آپ کا والیٹ {network} (چین آئی ڈی {chainId}) کو نہیں جانتا۔ یہ نیٹ ورک اپنے والیٹ میں شامل کریں، یا QR کوڈ یا پتے سے ادائیگی کریں۔',
    busy: 'آپ کے والیٹ میں پہلے سے ایک درخواست کھلی ہے۔ اسے مکمل یا بند کرنے کے لیے اپنا والیٹ کھولیں۔',
    failed:
      'آپ کا والیٹ ادائیگی نہیں بھیج سکا۔ کچھ نہیں بھیجا گیا؛ آپ دوبارہ کوشش کر سکتے ہیں یا QR کوڈ یا پتے سے ادائیگی کر سکتے ہیں۔',
  },
  'zh-Hant': {
    payWithWallet: '用錢包付款',
    confirmInWallet: '請在錢包中確認付款。',
    sent: '已從您的錢包傳送。網路確認後此頁面會自動更新。交易：{tx}',
    refused: '您在錢包中拒絕了請求。未傳送任何款項。',
    wrongChain: '您的錢包連線的是其他網路。請切換到 {network} 後重試。',
    unknownChain: '您的錢包無法辨識 {network}（鏈 ID {chainId}）。請在錢包中新增此網路，或使用 QR 碼或地址付款。',
    busy: '您的錢包已有一個待處理的請求。請開啟錢包完成或關閉它。',
    failed: '您的錢包未能傳送付款。未傳送任何款項；您可以重試，或使用 QR 碼或地址付款。',
  },
  ko: {
    payWithWallet: '지갑으로 결제',
    confirmInWallet: '지갑에서 결제를 승인하세요.',
    sent: '지갑에서 보냈습니다. 네트워크가 확인하면 이 페이지가 업데이트됩니다. 트랜잭션: {tx}',
    refused: '지갑에서 요청이 거부되었습니다. 아무것도 보내지 않았습니다.',
    wrongChain: '지갑이 다른 네트워크에 연결되어 있습니다. {network} 네트워크로 전환한 후 다시 시도하세요.',
    unknownChain:
      '지갑이 {network} 네트워크(체인 ID {chainId})를 알지 못합니다. 지갑에 이 네트워크를 추가하거나 QR 코드 또는 주소로 결제하세요.',
    busy: '지갑에 이미 열린 요청이 있습니다. 지갑을 열어 요청을 완료하거나 닫으세요.',
    failed:
      '지갑에서 결제를 보내지 못했습니다. 아무것도 보내지 않았습니다. 다시 시도하거나 QR 코드 또는 주소로 결제하세요.',
  },
};

/** The texts in `language` (the page's); lib/pay/i18n.test.ts checks every language has them all. */
export function walletMessages(language: Language): WalletMessages {
  return WALLET_MESSAGES[language];
}
