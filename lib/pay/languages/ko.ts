/**
 * Korean. Names are inserted where no particle follows them (a particle depends on the name's last
 * sound). Unreviewed: written without a native reader's check (docs/languages.md); follows
 * lib/pay/glossary.ts.
 */
import type { InvoiceMessages, Messages } from '../messages';
import type { WalletMessages } from '../wallet-messages';

export const messages: Messages = {
  separators: {
    label: ': ',
    sentence: '. ',
    item: ' · ',
  },
  pageTitle: '{merchant} 결제',
  payTo: '결제처: {merchant}',
  testMode: '테스트 모드',
  testModeNote: '테스트 주문입니다. 실제 자금은 이동하지 않습니다. 아래의 ‘결제 시뮬레이션’을 사용하세요.',
  language: '언어',
  sendExactly: '정확히 이 금액을 보내세요',
  networkWarning:
    '{currency} 전송은 {network} 네트워크에서만 하세요. 다른 네트워크로 보낸 자금은 잃어버릴 수 있습니다.',
  amount: '금액',
  address: '주소',
  tag: '데스티네이션 태그(Destination Tag)',
  tagWarningTitle: '데스티네이션 태그(Destination Tag)는 필수입니다',
  tagWarning: '지갑에 이 태그를 입력하세요. 태그가 없으면 결제를 이 주문과 연결할 수 없어 자금을 잃어버릴 수 있습니다.',
  qrChoice: 'QR 코드 내용',
  qrWithAmount: '금액 포함',
  qrAddressOnly: '주소만',
  qrWithAmountAlt: 'QR 코드: 이 결제를 위한 지갑 링크',
  qrAddressOnlyAlt: 'QR 코드: 주소만',
  qrAddressOnlyNote: '결제 링크를 읽지 못하는 지갑용: 금액을 직접 입력하세요.',
  openWallet: '지갑에서 열기',
  copy: '복사',
  copied: '복사됨',
  copyAmount: '금액 복사',
  copyAddress: '주소 복사',
  copyTag: '데스티네이션 태그 복사',
  description: '주문',
  orderTotal: '주문 합계',
  received: '받은 금액',
  remaining: '남은 금액',
  timeLeft: '남은 시간',
  expiringSoon: '곧 만료',
  timeUp: '시간이 종료되었습니다',
  confirmations: {
    other: '{n}회 중 {k}회 확인',
  },
  confirmationsEta: '예상 소요 시간: {time}',
  waitingConfirmations: '결제가 감지되었습니다. 확인을 기다리는 중입니다',
  payments: '결제 내역',
  transaction: '트랜잭션',
  paymentStatus: {
    detected: '확인 중',
    confirmed: '확인됨',
    reversed: '취소됨',
    rejected: '거부됨',
  },
  otherTransfers: '이 주소로 들어온 다른 전송',
  otherTransfersNote: '이 전송은 주문에 반영되지 않았습니다. 판매자에게 문의하세요.',
  lateLabel: '기한 이후',
  orderReference: '주문 참조 번호',
  copyReference: '주문 참조 번호 복사',
  copyTransaction: '트랜잭션 ID 복사',
  contactTitle: '판매자에게 문의',
  contactNote: '주문 참조 번호와 아래 트랜잭션 ID를 알려 주세요. 이 정보로 결제를 확인할 수 있습니다.',
  returnToStore: '상점으로 돌아가기',
  redirectIn: '{s}초 후 상점으로 돌아갑니다.',
  stayOnPage: '이 페이지에 머무르기',
  redirectCancelled: '이 페이지에 머무릅니다.',
  reconnecting: '다시 연결하는 중… 표시된 상태가 최신이 아닐 수 있습니다.',
  simulateTitle: '결제 시뮬레이션',
  simulateNote: '테스트 모드 전용: 샌드박스 원장에서 결제를 보냅니다.',
  simulateFull: '전액',
  simulatePartial: '일부',
  simulateOver: '초과',
  simulateSent: '보냄: {tx}',
  simulateFailed: '시뮬레이션 결제에 실패했습니다: {error}',
  notFoundTitle: '주문을 찾을 수 없습니다',
  notFoundBody: '이 링크에 해당하는 결제 주문이 없습니다. 상점에서 받은 링크를 확인하세요.',
  invoicePrice: '가격',
  changeCoin: '코인 변경',
  screens: {
    awaiting: {
      title: '결제 대기 중',
      body: '아래 금액을 아래 주소로 보내세요. 이 페이지는 자동으로 업데이트됩니다.',
    },
    detected: {
      title: '결제 감지됨',
      body: '결제가 진행 중이며 네트워크 확인을 기다리고 있습니다.',
    },
    'partially-paid': {
      title: '부분 결제됨',
      body: '금액의 일부가 도착했습니다. 시간이 끝나기 전에 남은 금액을 보내세요.',
    },
    paid: {
      title: '결제 완료',
      body: '감사합니다. 결제가 완료되었습니다.',
    },
    overpaid: {
      title: '결제 완료',
      body: '감사합니다. 결제가 완료되었습니다. 금액보다 많이 보내셨으니 차액은 판매자에게 문의하세요.',
    },
    expired: {
      title: '만료됨',
      body: '결제가 도착하기 전에 이 주문의 결제 시간이 끝났습니다. 이 주소로 더 이상 자금을 보내지 마세요. 다시 주문하려면 상점으로 돌아가세요.',
    },
    underpaid: {
      title: '결제 금액 부족',
      body: '전액을 받기 전에 주문이 만료되어 더 이상 결제할 수 없습니다. 주문을 완료하거나 환불을 받으려면 판매자에게 문의하세요.',
    },
    'paid-late': {
      title: '기한 후 결제',
      body: '주문이 만료된 후 결제가 도착하여 반영되지 않았습니다. 주문을 완료하거나 환불을 받으려면 판매자에게 문의하세요.',
    },
    error: {
      title: '결제 문제',
      body: '주문을 완료하려면 판매자가 먼저 이 결제를 확인해야 합니다. 판매자에게 문의하세요.',
    },
  },
};

export const invoiceMessages: InvoiceMessages = {
  pageTitle: '{merchant} 청구서',
  testModeNote: '테스트 청구서입니다. 실제 자금은 이동하지 않습니다.',
  price: '가격',
  coins: '결제에 사용할 수 있는 코인',
  searchLabel: '코인 검색',
  searchHint: '티커, 이름 또는 네트워크',
  searchCount: '표시된 코인: {total}개 중 {shown}개',
  searchNone: '검색과 일치하는 코인이 없습니다.',
  priceUnavailable: '가격 정보 없음',
  chosen: '현재 선택: {network} 네트워크의 {currency}.',
  continueWith: '계속하기: {network} 네트워크의 {currency}',
  chosenNote: '다른 코인을 선택하면 이 결제 요청이 대체됩니다. 그 후에는 이 주소로 자금을 보내지 마세요.',
  chooseAnother: '또는 다른 코인 선택',
  choosing: '결제를 준비하는 중…',
  continueToPayment: '결제 계속하기',
  paymentDetails: '결제 세부 정보 보기',
  emailLabel: '이메일 주소(선택)',
  emailHint: '이 결제에 관한 이메일과, 너무 많거나 적게 보낸 경우 환불을 요청할 링크를 이 주소로 보내 드립니다.',
  errors: {
    closed: '이 청구서는 더 이상 코인을 선택할 수 없습니다. 이미 결제되었거나, 종료되었거나, 기한이 지났습니다.',
    rate: '지금은 해당 코인의 최신 가격이 없습니다. 1분 후 다시 시도하거나 다른 코인을 선택하세요.',
    'not-offered': '해당 코인은 이 청구서에서 제공되지 않습니다. 목록에서 선택하세요.',
    busy: '결제 게이트웨이가 지금 혼잡합니다. 잠시 후 다시 시도하세요.',
    invalid: '목록에서 코인을 선택하세요.',
    email: '이 이메일 주소는 올바르지 않습니다. 고치거나 칸을 비워 두세요.',
    choices:
      '이 청구서에서 허용하는 만큼 코인을 변경했습니다. 결제 요청이 유효한 동안 이전에 선택한 코인을 선택하거나, 상점에 새 청구서를 요청하세요.',
  },
  notFoundTitle: '청구서를 찾을 수 없습니다',
  notFoundBody: '이 링크에 해당하는 청구서가 없습니다. 상점에서 받은 링크를 확인하세요.',
  goBack: '뒤로 가기',
  home: '홈페이지로 이동',
  screens: {
    choose: {
      title: '결제 방법 선택',
      body: '코인과 네트워크를 선택하세요. 보낼 금액은 선택하는 시점에 확정됩니다.',
    },
    pay: {
      title: '결제 진행 중',
      body: '이 청구서의 결제가 감지되었습니다. 결제 페이지에서 진행 상황을 확인하세요.',
    },
    paid: {
      title: '결제 완료',
      body: '감사합니다. 이 청구서는 결제되었습니다.',
    },
    expired: {
      title: '이 청구서는 만료되었습니다',
      body: '결제 기한이 지났습니다. 이 청구서에 자금을 보내지 말고 상점에 새 청구서를 요청하세요.',
    },
    closed: {
      title: '결제가 완료되지 않았습니다',
      body: '이 청구서는 전액 결제 없이 종료되었습니다. 결제 페이지에서 받은 금액을 확인하고 판매자에게 문의하세요.',
    },
  },
};

export const walletMessages: WalletMessages = {
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
};
