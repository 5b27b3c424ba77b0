/**
 * Traditional Chinese (zh-TW, zh-HK, zh-MO and zh-Hant negotiate to `zh-Hant`), in Taiwan's usage
 * (網路, 偵測). Unreviewed: written without a native reader's check (docs/languages.md); follows
 * lib/pay/glossary.ts.
 */
import type { InvoiceMessages, Messages } from '../messages';
import type { WalletMessages } from '../wallet-messages';

export const messages: Messages = {
  separators: {
    label: '：',
    sentence: '。',
    item: ' · ',
  },
  pageTitle: '向 {merchant} 付款',
  payTo: '付款給 {merchant}',
  testMode: '測試模式',
  testModeNote: '這是測試訂單：不會轉移真實資金。請使用下方的「模擬付款」。',
  language: '語言',
  sendExactly: '請準確傳送',
  networkWarning: '請僅透過 {network} 網路傳送 {currency}。透過其他網路傳送的資金可能會遺失。',
  amount: '金額',
  address: '地址',
  tag: '目標標籤（Destination Tag）',
  tagWarningTitle: '必須填寫目標標籤（Destination Tag）',
  tagWarning: '請在錢包中填寫此標籤。少了它，您的付款將無法與此訂單比對，並可能遺失。',
  qrChoice: 'QR 碼內容',
  qrWithAmount: '含金額',
  qrAddressOnly: '僅地址',
  qrWithAmountAlt: 'QR 碼：此筆付款的錢包連結',
  qrAddressOnlyAlt: 'QR 碼：僅地址',
  qrAddressOnlyNote: '適用於無法讀取付款連結的錢包：請自行輸入金額。',
  openWallet: '在錢包中開啟',
  copy: '複製',
  copied: '已複製',
  copyAmount: '複製金額',
  copyAddress: '複製地址',
  copyTag: '複製目標標籤',
  description: '訂單',
  orderTotal: '訂單總額',
  received: '已收到',
  remaining: '剩餘',
  timeLeft: '剩餘時間',
  expiringSoon: '即將逾期',
  timeUp: '時間已到',
  confirmations: {
    other: '{k}/{n} 次確認',
  },
  confirmationsEta: '預計還需 {time}',
  waitingConfirmations: '已偵測到付款，正在等待確認',
  payments: '付款',
  transaction: '交易',
  paymentStatus: {
    detected: '確認中',
    confirmed: '已確認',
    reversed: '已撤銷',
    rejected: '已拒絕',
  },
  otherTransfers: '轉入此地址的其他轉帳',
  otherTransfersNote: '這些轉帳未計入訂單。請就此聯絡商家。',
  lateLabel: '超過期限後',
  orderReference: '訂單編號',
  copyReference: '複製訂單編號',
  copyTransaction: '複製交易 ID',
  contactTitle: '聯絡商家',
  contactNote: '請向商家提供訂單編號和下方的交易 ID：它們可以識別您的付款。',
  returnToStore: '返回商店',
  redirectIn: '{s} 秒後返回商店。',
  stayOnPage: '留在此頁面',
  redirectCancelled: '您將留在此頁面。',
  reconnecting: '正在重新連線… 顯示的狀態可能已過時。',
  simulateTitle: '模擬付款',
  simulateNote: '僅限測試模式：在測試帳本上傳送一筆付款。',
  simulateFull: '全額',
  simulatePartial: '部分',
  simulateOver: '超額',
  simulateSent: '已傳送：{tx}',
  simulateFailed: '模擬付款失敗：{error}',
  notFoundTitle: '找不到訂單',
  notFoundBody: '此連結沒有對應的付款訂單。請檢查商店提供給您的連結。',
  invoicePrice: '價格',
  changeCoin: '更換幣種',
  screens: {
    awaiting: {
      title: '等待付款',
      body: '請將下方金額傳送到下方地址。此頁面會自動更新。',
    },
    detected: {
      title: '已偵測到付款',
      body: '您的付款正在途中，等待網路確認。',
    },
    'partially-paid': {
      title: '部分付款',
      body: '已收到部分金額。請在時間結束前傳送剩餘金額。',
    },
    paid: {
      title: '已付款',
      body: '謝謝：付款已完成。',
    },
    overpaid: {
      title: '已付款',
      body: '謝謝：付款已完成。您傳送的金額超過應付金額，差額請聯絡商家。',
    },
    expired: {
      title: '已逾期',
      body: '在收到付款之前，此訂單的付款時間已結束。請勿再向此地址傳送資金。請返回商店重新下單。',
    },
    underpaid: {
      title: '付款不足',
      body: '訂單逾期時未收到全額，已無法再付款。請聯絡商家完成訂單或申請退款。',
    },
    'paid-late': {
      title: '逾期付款',
      body: '有一筆付款在訂單逾期後到達，因此未被計入。請聯絡商家完成訂單或申請退款。',
    },
    error: {
      title: '付款問題',
      body: '商家需要先核查這筆付款，訂單才能完成。請聯絡商家。',
    },
  },
};

export const invoiceMessages: InvoiceMessages = {
  pageTitle: '來自 {merchant} 的帳單',
  testModeNote: '這是測試帳單：不會轉移真實資金。',
  price: '價格',
  coins: '可用於付款的幣種',
  searchLabel: '搜尋幣種',
  searchHint: '代號、名稱或網路',
  searchCount: '顯示的幣種：{shown}/{total}',
  searchNone: '沒有符合搜尋的幣種。',
  priceUnavailable: '暫無價格',
  chosen: '您目前的選擇：{network} 網路上的 {currency}。',
  continueWith: '繼續使用 {network} 網路上的 {currency}',
  chosenNote: '選擇其他幣種會取代此付款請求：之後請勿向其地址傳送資金。',
  chooseAnother: '或選擇其他幣種',
  choosing: '正在準備您的付款…',
  continueToPayment: '繼續付款',
  paymentDetails: '查看付款詳情',
  errors: {
    closed: '此帳單已不接受選擇幣種：它已付款、已關閉或已逾時。',
    rate: '目前該幣種沒有最新價格。請一分鐘後重試，或選擇其他幣種。',
    'not-offered': '此帳單不提供該幣種。請從清單中選擇。',
    busy: '付款閘道目前忙碌中。請稍後重試。',
    invalid: '請從清單中選擇一個幣種。',
  },
  notFoundTitle: '找不到帳單',
  notFoundBody: '此連結沒有對應的帳單。請檢查商店提供給您的連結。',
  goBack: '返回',
  home: '前往首頁',
  screens: {
    choose: {
      title: '選擇付款方式',
      body: '選擇一個幣種及其網路。應傳送的金額在您選擇時確定。',
    },
    pay: {
      title: '付款進行中',
      body: '已偵測到此帳單的一筆付款。請在付款頁面上追蹤。',
    },
    paid: {
      title: '已付款',
      body: '謝謝：此帳單已付款。',
    },
    expired: {
      title: '此帳單已逾期',
      body: '付款時間已結束。請勿為其傳送資金；請向商店索取新帳單。',
    },
    closed: {
      title: '付款未完成',
      body: '此帳單在未全額付款的情況下已關閉。付款頁面會顯示已收到的金額；請聯絡商家。',
    },
  },
};

export const walletMessages: WalletMessages = {
  payWithWallet: '用錢包付款',
  confirmInWallet: '請在錢包中確認付款。',
  sent: '已從您的錢包傳送。網路確認後此頁面會自動更新。交易：{tx}',
  refused: '您在錢包中拒絕了請求。未傳送任何款項。',
  wrongChain: '您的錢包連線的是其他網路。請切換到 {network} 後重試。',
  unknownChain: '您的錢包無法辨識 {network}（鏈 ID {chainId}）。請在錢包中新增此網路，或使用 QR 碼或地址付款。',
  busy: '您的錢包已有一個待處理的請求。請開啟錢包完成或關閉它。',
  failed: '您的錢包未能傳送付款。未傳送任何款項；您可以重試，或使用 QR 碼或地址付款。',
};
