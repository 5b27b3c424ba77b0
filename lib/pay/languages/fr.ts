import type { InvoiceMessages, Messages } from '../messages';
import type { WalletMessages } from '../wallet-messages';

export const messages: Messages = {
  separators: { label: '\u00a0: ', sentence: '. ', item: ' · ' },
  pageTitle: 'Payer {merchant}',
  payTo: 'Paiement à {merchant}',
  testMode: 'MODE TEST',
  testModeNote:
    'Ceci est une commande de test\u00a0: aucun fonds réel n’est transféré. Utilisez «\u202fSimuler un paiement\u202f» ci-dessous.',
  language: 'Langue',
  sendExactly: 'Envoyez exactement',
  networkWarning:
    'Envoyez des {currency} uniquement sur {network}. Des fonds envoyés sur un autre réseau peuvent être perdus.',
  amount: 'Montant',
  address: 'Adresse',
  tag: 'Tag de destination',
  tagWarningTitle: 'Le tag de destination est obligatoire',
  tagWarning:
    'Saisissez ce tag dans votre portefeuille. Sans lui, votre paiement ne peut pas être associé à cette commande et peut être perdu.',
  qrChoice: 'Contenu du code QR',
  qrWithAmount: 'Avec le montant',
  qrAddressOnly: 'Adresse seule',
  qrWithAmountAlt: 'Code QR\u00a0: lien de portefeuille pour ce paiement',
  qrAddressOnlyAlt: 'Code QR\u00a0: l’adresse seule',
  qrAddressOnlyNote:
    'Pour les portefeuilles qui ne lisent pas les liens de paiement\u00a0: saisissez le montant vous-même.',
  openWallet: 'Ouvrir dans le portefeuille',
  copy: 'Copier',
  copied: 'Copié',
  copyAmount: 'Copier le montant',
  copyAddress: 'Copier l’adresse',
  copyTag: 'Copier le tag de destination',
  description: 'Commande',
  orderTotal: 'Total de la commande',
  received: 'Reçu',
  remaining: 'Restant',
  timeLeft: 'Temps restant',
  expiringSoon: 'Expire bientôt',
  timeUp: 'Le temps est écoulé',
  confirmations: {
    one: '{k} sur {n} confirmation',
    many: '{k} sur {n} confirmations',
    other: '{k} sur {n} confirmations',
  },
  confirmationsEta: 'encore environ {time}',
  waitingConfirmations: 'Paiement détecté, en attente des confirmations',
  payments: 'Paiements',
  transaction: 'Transaction',
  paymentStatus: { detected: 'En confirmation', confirmed: 'Confirmé', reversed: 'Annulé', rejected: 'Refusé' },
  otherTransfers: 'Autres transferts vers cette adresse',
  otherTransfersNote: 'Ils n’ont pas été comptés pour la commande. Contactez le marchand à leur sujet.',
  lateLabel: 'après l’échéance',
  orderReference: 'Référence de la commande',
  copyReference: 'Copier la référence de la commande',
  copyTransaction: 'Copier l’identifiant de transaction',
  contactTitle: 'Contactez le marchand',
  contactNote:
    'Donnez-lui la référence de la commande et les identifiants de transaction ci-dessous\u00a0: ils identifient votre paiement.',
  returnToStore: 'Retour à la boutique',
  redirectIn: 'Retour à la boutique dans {s} s.',
  stayOnPage: 'Rester sur cette page',
  redirectCancelled: 'Vous restez sur cette page.',
  reconnecting: 'Reconnexion… L’état affiché n’est peut-être plus à jour.',
  simulateTitle: 'Simuler un paiement',
  simulateNote: 'Mode test uniquement\u00a0: envoie un paiement sur le registre de test.',
  simulateFull: 'Complet',
  simulatePartial: 'Partiel',
  simulateOver: 'En trop',
  simulateSent: 'Envoyé\u00a0: {tx}',
  simulateFailed: 'Le paiement simulé a échoué\u00a0: {error}',
  notFoundTitle: 'Commande introuvable',
  notFoundBody: 'Ce lien ne mène à aucune commande de paiement. Vérifiez le lien que la boutique vous a donné.',
  invoicePrice: 'Prix',
  changeCoin: 'Changer de monnaie',
  screens: {
    awaiting: {
      title: 'En attente du paiement',
      body: 'Envoyez le montant ci-dessous à l’adresse ci-dessous. Cette page se met à jour toute seule.',
    },
    detected: { title: 'Paiement détecté', body: 'Votre paiement est en route et attend les confirmations du réseau.' },
    'partially-paid': {
      title: 'Payée en partie',
      body: 'Une partie du montant est arrivée. Envoyez le montant restant avant la fin du délai.',
    },
    paid: { title: 'Payée', body: 'Merci\u00a0: le paiement est terminé.' },
    overpaid: {
      title: 'Payée',
      body: 'Merci\u00a0: le paiement est terminé. Vous avez envoyé plus que le montant\u202f; contactez le marchand pour la différence.',
    },
    expired: {
      title: 'Expirée',
      body: 'Le délai pour payer cette commande s’est écoulé avant l’arrivée d’un paiement. N’envoyez plus de fonds à cette adresse. Retournez à la boutique pour commander à nouveau.',
    },
    underpaid: {
      title: 'Paiement insuffisant',
      body: 'La commande a expiré sans que le montant complet soit reçu, et elle ne peut plus être payée. Contactez le marchand pour finaliser la commande ou être remboursé.',
    },
    'paid-late': {
      title: 'Payée en retard',
      body: 'Un paiement est arrivé après l’expiration de la commande\u202f; il n’a donc pas été compté. Contactez le marchand pour finaliser la commande ou être remboursé.',
    },
    error: {
      title: 'Problème de paiement',
      body: 'Le marchand doit vérifier ce paiement avant que la commande puisse aboutir. Contactez le marchand.',
    },
  },
};

export const invoiceMessages: InvoiceMessages = {
  pageTitle: 'Facture de {merchant}',
  testModeNote: 'Ceci est une facture de test\u00a0: aucun fonds réel n’est transféré.',
  price: 'Prix',
  coins: 'Monnaies acceptées',
  searchLabel: 'Rechercher une monnaie',
  searchHint: 'Symbole, nom ou réseau',
  searchCount: 'Monnaies affichées\u00a0: {shown} sur {total}',
  searchNone: 'Aucune monnaie ne correspond à votre recherche.',
  priceUnavailable: 'prix indisponible',
  chosen: 'Votre choix actuel\u00a0: {currency} sur {network}.',
  continueWith: 'Continuer avec {currency} sur {network}',
  chosenNote:
    'Choisir une autre monnaie remplace cette demande de paiement\u00a0: n’envoyez plus de fonds à son adresse ensuite.',
  chooseAnother: 'Ou choisissez une autre monnaie',
  choosing: 'Préparation de votre paiement…',
  continueToPayment: 'Continuer vers le paiement',
  paymentDetails: 'Voir les détails du paiement',
  emailLabel: 'Adresse e-mail (facultatif)',
  emailHint:
    'Nous y envoyons les e-mails de ce paiement et, si vous envoyez trop ou trop peu, un lien pour demander un remboursement.',
  errors: {
    closed: 'Cette facture n’accepte plus de choix de monnaie\u00a0: elle est payée, close ou hors délai.',
    rate: 'Il n’y a pas de prix récent pour cette monnaie pour le moment. Réessayez dans une minute ou choisissez une autre monnaie.',
    'not-offered': 'Cette monnaie n’est pas proposée pour cette facture. Choisissez-en une dans la liste.',
    busy: 'La passerelle est occupée pour le moment. Réessayez dans un instant.',
    invalid: 'Choisissez une monnaie dans la liste.',
    email: 'Cette adresse e-mail n’est pas valide. Corrigez-la ou laissez le champ vide.',
    choices:
      'Vous avez changé de monnaie autant de fois que cette facture le permet. Choisissez une monnaie déjà choisie tant que sa demande de paiement court, ou demandez une nouvelle facture à la boutique.',
  },
  notFoundTitle: 'Facture introuvable',
  notFoundBody: 'Ce lien ne mène à aucune facture. Vérifiez le lien que la boutique vous a donné.',
  goBack: 'Retour',
  home: 'Aller à la page d’accueil',
  screens: {
    choose: {
      title: 'Choisissez comment payer',
      body: 'Choisissez une monnaie et son réseau. Le montant à envoyer est fixé au moment du choix.',
    },
    pay: {
      title: 'Paiement en cours',
      body: 'Un paiement pour cette facture a été détecté. Suivez-le sur la page de paiement.',
    },
    paid: { title: 'Payée', body: 'Merci\u00a0: cette facture est payée.' },
    expired: {
      title: 'Cette facture a expiré',
      body: 'Le délai pour la payer est écoulé. N’envoyez pas de fonds pour elle\u202f; demandez une nouvelle facture à la boutique.',
    },
    closed: {
      title: 'Le paiement n’a pas abouti',
      body: 'Cette facture est close sans paiement complet. La page de paiement montre ce qui a été reçu\u202f; contactez le marchand.',
    },
  },
};

export const walletMessages: WalletMessages = {
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
};
