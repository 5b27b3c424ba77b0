import type { InvoiceMessages, Messages } from '../messages';
import type { WalletMessages } from '../wallet-messages';

export const messages: Messages = {
  separators: { label: ': ', sentence: '. ', item: ' · ' },
  pageTitle: '{merchant} bezahlen',
  payTo: 'Zahlung an {merchant}',
  testMode: 'TESTMODUS',
  testModeNote: 'Dies ist eine Testbestellung: Es wird kein echtes Geld bewegt. Nutzen Sie unten „Zahlung simulieren“.',
  language: 'Sprache',
  sendExactly: 'Senden Sie genau',
  networkWarning:
    'Senden Sie {currency} nur im Netzwerk {network}. In einem anderen Netzwerk gesendetes Geld kann verloren gehen.',
  amount: 'Betrag',
  address: 'Adresse',
  tag: 'Destination Tag',
  tagWarningTitle: 'Der Destination Tag ist erforderlich',
  tagWarning:
    'Geben Sie diesen Tag in Ihrer Wallet ein. Ohne ihn kann Ihre Zahlung dieser Bestellung nicht zugeordnet werden und kann verloren gehen.',
  qrChoice: 'Inhalt des QR-Codes',
  qrWithAmount: 'Mit Betrag',
  qrAddressOnly: 'Nur Adresse',
  qrWithAmountAlt: 'QR-Code: Wallet-Link für diese Zahlung',
  qrAddressOnlyAlt: 'QR-Code: nur die Adresse',
  qrAddressOnlyNote: 'Für Wallets, die keine Zahlungslinks lesen: Geben Sie den Betrag selbst ein.',
  openWallet: 'In der Wallet öffnen',
  copy: 'Kopieren',
  copied: 'Kopiert',
  copyAmount: 'Betrag kopieren',
  copyAddress: 'Adresse kopieren',
  copyTag: 'Destination Tag kopieren',
  description: 'Bestellung',
  orderTotal: 'Bestellsumme',
  received: 'Erhalten',
  remaining: 'Offen',
  timeLeft: 'Verbleibende Zeit',
  expiringSoon: 'Läuft bald ab',
  timeUp: 'Die Zeit ist abgelaufen',
  confirmations: { one: '{k} von {n} Bestätigung', other: '{k} von {n} Bestätigungen' },
  confirmationsEta: 'noch etwa {time}',
  waitingConfirmations: 'Zahlung erkannt, warte auf Bestätigungen',
  payments: 'Zahlungen',
  transaction: 'Transaktion',
  paymentStatus: {
    detected: 'Wird bestätigt',
    confirmed: 'Bestätigt',
    reversed: 'Rückgängig gemacht',
    rejected: 'Abgelehnt',
  },
  otherTransfers: 'Weitere Überweisungen an diese Adresse',
  otherTransfersNote: 'Diese wurden nicht für die Bestellung gezählt. Wenden Sie sich deswegen an den Händler.',
  lateLabel: 'nach Ablauf der Frist',
  orderReference: 'Bestellreferenz',
  copyReference: 'Bestellreferenz kopieren',
  copyTransaction: 'Transaktions-ID kopieren',
  contactTitle: 'Händler kontaktieren',
  contactNote:
    'Nennen Sie dem Händler die Bestellreferenz und die Transaktions-IDs unten: Daran erkennt er Ihre Zahlung.',
  returnToStore: 'Zurück zum Shop',
  redirectIn: 'Zurück zum Shop in {s} s.',
  stayOnPage: 'Auf dieser Seite bleiben',
  redirectCancelled: 'Sie bleiben auf dieser Seite.',
  reconnecting: 'Verbindung wird wiederhergestellt… Der angezeigte Status ist möglicherweise veraltet.',
  simulateTitle: 'Zahlung simulieren',
  simulateNote: 'Nur im Testmodus: sendet eine Zahlung im Test-Ledger.',
  simulateFull: 'Voll',
  simulatePartial: 'Teilweise',
  simulateOver: 'Zu viel',
  simulateSent: 'Gesendet: {tx}',
  simulateFailed: 'Die simulierte Zahlung ist fehlgeschlagen: {error}',
  notFoundTitle: 'Bestellung nicht gefunden',
  notFoundBody: 'Unter diesem Link gibt es keine Bestellung. Prüfen Sie den Link, den Ihnen der Shop gegeben hat.',
  invoicePrice: 'Preis',
  changeCoin: 'Währung wechseln',
  screens: {
    awaiting: {
      title: 'Warte auf Zahlung',
      body: 'Senden Sie den Betrag unten an die Adresse unten. Diese Seite aktualisiert sich selbst.',
    },
    detected: {
      title: 'Zahlung erkannt',
      body: 'Ihre Zahlung ist unterwegs und wartet auf Bestätigungen des Netzwerks.',
    },
    'partially-paid': {
      title: 'Teilweise bezahlt',
      body: 'Ein Teil des Betrags ist angekommen. Senden Sie den offenen Betrag, bevor die Zeit abläuft.',
    },
    paid: { title: 'Bezahlt', body: 'Vielen Dank: Die Zahlung ist abgeschlossen.' },
    overpaid: {
      title: 'Bezahlt',
      body: 'Vielen Dank: Die Zahlung ist abgeschlossen. Sie haben mehr als den Betrag gesendet; wenden Sie sich wegen der Differenz an den Händler.',
    },
    expired: {
      title: 'Abgelaufen',
      body: 'Die Zeit zum Bezahlen dieser Bestellung ist abgelaufen, bevor eine Zahlung ankam. Senden Sie kein Geld mehr an diese Adresse. Kehren Sie zum Shop zurück, um erneut zu bestellen.',
    },
    underpaid: {
      title: 'Zu wenig bezahlt',
      body: 'Die Bestellung ist abgelaufen, ohne dass der volle Betrag ankam, und kann nicht mehr bezahlt werden. Wenden Sie sich an den Händler, um die Bestellung abzuschließen oder eine Erstattung zu erhalten.',
    },
    'paid-late': {
      title: 'Verspätet bezahlt',
      body: 'Eine Zahlung kam nach Ablauf der Bestellung an und wurde daher nicht gezählt. Wenden Sie sich an den Händler, um die Bestellung abzuschließen oder eine Erstattung zu erhalten.',
    },
    error: {
      title: 'Problem mit der Zahlung',
      body: 'Der Händler muss diese Zahlung prüfen, bevor die Bestellung abgeschlossen werden kann. Wenden Sie sich an den Händler.',
    },
  },
};

export const invoiceMessages: InvoiceMessages = {
  pageTitle: 'Rechnung von {merchant}',
  testModeNote: 'Dies ist eine Testrechnung: Es wird kein echtes Geld bewegt.',
  price: 'Preis',
  coins: 'Währungen, mit denen Sie zahlen können',
  searchLabel: 'Währungen suchen',
  searchHint: 'Kürzel, Name oder Netzwerk',
  searchCount: 'Angezeigte Währungen: {shown} von {total}',
  searchNone: 'Keine Währung passt zu Ihrer Suche.',
  priceUnavailable: 'Preis nicht verfügbar',
  chosen: 'Ihre aktuelle Wahl: {currency} im Netzwerk {network}.',
  continueWith: 'Weiter mit {currency} im Netzwerk {network}',
  chosenNote:
    'Eine andere Währung ersetzt diese Zahlungsanforderung: Senden Sie danach kein Geld mehr an ihre Adresse.',
  chooseAnother: 'Oder wählen Sie eine andere Währung',
  choosing: 'Ihre Zahlung wird vorbereitet…',
  continueToPayment: 'Weiter zur Zahlung',
  paymentDetails: 'Zahlungsdetails ansehen',
  emailLabel: 'E-Mail-Adresse (optional)',
  emailHint:
    'Dorthin senden wir die E-Mails zu dieser Zahlung und, falls Sie zu viel oder zu wenig senden, einen Link, um eine Erstattung anzufordern.',
  errors: {
    closed: 'Diese Rechnung nimmt keine Währungswahl mehr an: Sie ist bezahlt, geschlossen oder abgelaufen.',
    rate: 'Für diese Währung gibt es gerade keinen aktuellen Preis. Versuchen Sie es in einer Minute erneut oder wählen Sie eine andere Währung.',
    'not-offered': 'Diese Währung wird für diese Rechnung nicht angeboten. Wählen Sie eine aus der Liste.',
    busy: 'Das Gateway ist gerade ausgelastet. Versuchen Sie es gleich noch einmal.',
    invalid: 'Wählen Sie eine Währung aus der Liste.',
    email: 'Diese E-Mail-Adresse ist ungültig. Korrigieren Sie sie oder lassen Sie das Feld leer.',
    choices:
      'Sie haben die Währung so oft gewechselt, wie diese Rechnung es erlaubt. Wählen Sie eine zuvor gewählte Währung, solange ihre Zahlungsanforderung läuft, oder bitten Sie den Shop um eine neue Rechnung.',
  },
  notFoundTitle: 'Rechnung nicht gefunden',
  notFoundBody: 'Unter diesem Link gibt es keine Rechnung. Prüfen Sie den Link, den Ihnen der Shop gegeben hat.',
  goBack: 'Zurück',
  home: 'Zur Startseite',
  screens: {
    choose: {
      title: 'Zahlungsart wählen',
      body: 'Wählen Sie eine Währung und ihr Netzwerk. Der zu sendende Betrag wird bei der Wahl festgelegt.',
    },
    pay: {
      title: 'Zahlung läuft',
      body: 'Eine Zahlung für diese Rechnung wurde erkannt. Verfolgen Sie sie auf der Zahlungsseite.',
    },
    paid: { title: 'Bezahlt', body: 'Vielen Dank: Diese Rechnung ist bezahlt.' },
    expired: {
      title: 'Diese Rechnung ist abgelaufen',
      body: 'Die Zahlungsfrist ist vorbei. Senden Sie kein Geld dafür; bitten Sie den Shop um eine neue Rechnung.',
    },
    closed: {
      title: 'Die Zahlung wurde nicht abgeschlossen',
      body: 'Diese Rechnung wurde ohne vollständige Zahlung geschlossen. Die Zahlungsseite zeigt, was angekommen ist; wenden Sie sich an den Händler.',
    },
  },
};

export const walletMessages: WalletMessages = {
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
};
