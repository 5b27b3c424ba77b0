/**
 * Vietnamese. Unreviewed: written without a native reader's check (docs/languages.md); follows
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
  pageTitle: 'Thanh toán cho {merchant}',
  payTo: 'Thanh toán cho {merchant}',
  testMode: 'CHẾ ĐỘ THỬ NGHIỆM',
  testModeNote: 'Đây là đơn hàng thử nghiệm: không có tiền thật được chuyển. Hãy dùng “Mô phỏng thanh toán” bên dưới.',
  language: 'Ngôn ngữ',
  sendExactly: 'Gửi chính xác',
  networkWarning: 'Chỉ gửi {currency} trên mạng {network}. Tiền gửi trên mạng khác có thể bị mất.',
  amount: 'Số tiền',
  address: 'Địa chỉ',
  tag: 'Thẻ đích (Destination Tag)',
  tagWarningTitle: 'Bắt buộc nhập thẻ đích (Destination Tag)',
  tagWarning:
    'Hãy nhập thẻ này vào ví của bạn. Nếu thiếu thẻ, khoản thanh toán không thể khớp với đơn hàng này và có thể bị mất.',
  qrChoice: 'Nội dung mã QR',
  qrWithAmount: 'Kèm số tiền',
  qrAddressOnly: 'Chỉ địa chỉ',
  qrWithAmountAlt: 'Mã QR: liên kết ví cho khoản thanh toán này',
  qrAddressOnlyAlt: 'Mã QR: chỉ địa chỉ',
  qrAddressOnlyNote: 'Dành cho ví không đọc được liên kết thanh toán: hãy tự nhập số tiền.',
  openWallet: 'Mở trong ví',
  copy: 'Sao chép',
  copied: 'Đã sao chép',
  copyAmount: 'Sao chép số tiền',
  copyAddress: 'Sao chép địa chỉ',
  copyTag: 'Sao chép thẻ đích',
  description: 'Đơn hàng',
  orderTotal: 'Tổng đơn hàng',
  received: 'Đã nhận',
  remaining: 'Còn lại',
  timeLeft: 'Thời gian còn lại',
  expiringSoon: 'Sắp hết hạn',
  timeUp: 'Đã hết thời gian',
  confirmations: {
    other: '{k}/{n} xác nhận',
  },
  confirmationsEta: 'thời gian ước tính: {time}',
  waitingConfirmations: 'Đã phát hiện thanh toán, đang chờ xác nhận',
  payments: 'Các khoản thanh toán',
  transaction: 'Giao dịch',
  paymentStatus: {
    detected: 'Đang xác nhận',
    confirmed: 'Đã xác nhận',
    reversed: 'Đã bị hủy',
    rejected: 'Bị từ chối',
  },
  otherTransfers: 'Các khoản chuyển khác đến địa chỉ này',
  otherTransfersNote: 'Các khoản này không được tính vào đơn hàng. Hãy liên hệ người bán về chúng.',
  lateLabel: 'sau thời hạn',
  orderReference: 'Mã tham chiếu đơn hàng',
  copyReference: 'Sao chép mã tham chiếu đơn hàng',
  copyTransaction: 'Sao chép mã giao dịch',
  contactTitle: 'Liên hệ người bán',
  contactNote:
    'Hãy cung cấp mã tham chiếu đơn hàng và các mã giao dịch bên dưới: chúng giúp xác định khoản thanh toán của bạn.',
  returnToStore: 'Quay lại cửa hàng',
  redirectIn: 'Quay lại cửa hàng sau {s} giây.',
  stayOnPage: 'Ở lại trang này',
  redirectCancelled: 'Bạn sẽ ở lại trang này.',
  reconnecting: 'Đang kết nối lại… Trạng thái hiển thị có thể đã cũ.',
  simulateTitle: 'Mô phỏng thanh toán',
  simulateNote: 'Chỉ ở chế độ thử nghiệm: gửi một khoản thanh toán trên sổ cái thử nghiệm.',
  simulateFull: 'Đủ',
  simulatePartial: 'Một phần',
  simulateOver: 'Dư',
  simulateSent: 'Đã gửi: {tx}',
  simulateFailed: 'Thanh toán mô phỏng thất bại: {error}',
  notFoundTitle: 'Không tìm thấy đơn hàng',
  notFoundBody: 'Không có đơn thanh toán nào ở liên kết này. Hãy kiểm tra liên kết mà cửa hàng đã gửi cho bạn.',
  invoicePrice: 'Giá',
  changeCoin: 'Đổi đồng tiền',
  screens: {
    awaiting: {
      title: 'Đang chờ thanh toán',
      body: 'Gửi số tiền bên dưới đến địa chỉ bên dưới. Trang này tự động cập nhật.',
    },
    detected: {
      title: 'Đã phát hiện thanh toán',
      body: 'Khoản thanh toán của bạn đang được chuyển và chờ xác nhận của mạng.',
    },
    'partially-paid': {
      title: 'Đã thanh toán một phần',
      body: 'Một phần số tiền đã đến. Hãy gửi số tiền còn lại trước khi hết thời gian.',
    },
    paid: {
      title: 'Đã thanh toán',
      body: 'Cảm ơn bạn: thanh toán đã hoàn tất.',
    },
    overpaid: {
      title: 'Đã thanh toán',
      body: 'Cảm ơn bạn: thanh toán đã hoàn tất. Bạn đã gửi nhiều hơn số tiền cần trả; hãy liên hệ người bán về phần chênh lệch.',
    },
    expired: {
      title: 'Đã hết hạn',
      body: 'Thời gian thanh toán đơn hàng này đã hết trước khi có khoản thanh toán nào đến. Đừng gửi tiền đến địa chỉ này nữa. Hãy quay lại cửa hàng để đặt hàng lại.',
    },
    underpaid: {
      title: 'Thanh toán thiếu',
      body: 'Đơn hàng đã hết hạn khi chưa nhận đủ số tiền và không thể thanh toán thêm. Hãy liên hệ người bán để hoàn tất đơn hàng hoặc được hoàn tiền.',
    },
    'paid-late': {
      title: 'Thanh toán trễ',
      body: 'Một khoản thanh toán đến sau khi đơn hàng đã hết hạn nên không được tính. Hãy liên hệ người bán để hoàn tất đơn hàng hoặc được hoàn tiền.',
    },
    error: {
      title: 'Sự cố thanh toán',
      body: 'Người bán cần kiểm tra khoản thanh toán này trước khi đơn hàng có thể hoàn tất. Hãy liên hệ người bán.',
    },
  },
};

export const invoiceMessages: InvoiceMessages = {
  pageTitle: 'Hóa đơn từ {merchant}',
  testModeNote: 'Đây là hóa đơn thử nghiệm: không có tiền thật được chuyển.',
  price: 'Giá',
  coins: 'Các đồng tiền bạn có thể dùng để thanh toán',
  searchLabel: 'Tìm đồng tiền',
  searchHint: 'Mã, tên hoặc mạng',
  searchCount: 'Đồng tiền hiển thị: {shown}/{total}',
  searchNone: 'Không có đồng tiền nào khớp với tìm kiếm của bạn.',
  priceUnavailable: 'chưa có giá',
  chosen: 'Lựa chọn hiện tại của bạn: {currency} trên mạng {network}.',
  continueWith: 'Tiếp tục với {currency} trên mạng {network}',
  chosenNote: 'Chọn đồng tiền khác sẽ thay thế yêu cầu thanh toán này: sau đó đừng gửi tiền đến địa chỉ của nó.',
  chooseAnother: 'Hoặc chọn đồng tiền khác',
  choosing: 'Đang chuẩn bị khoản thanh toán của bạn…',
  continueToPayment: 'Tiếp tục thanh toán',
  paymentDetails: 'Xem chi tiết thanh toán',
  emailLabel: 'Địa chỉ email (không bắt buộc)',
  emailHint:
    'Chúng tôi gửi email về khoản thanh toán này đến đây và, nếu bạn gửi thừa hoặc thiếu, một liên kết để yêu cầu hoàn tiền.',
  errors: {
    closed: 'Hóa đơn này không còn cho phép chọn đồng tiền: hóa đơn đã được thanh toán, đã đóng hoặc đã hết hạn.',
    rate: 'Hiện chưa có giá mới cho đồng tiền đó. Hãy thử lại sau một phút hoặc chọn đồng tiền khác.',
    'not-offered': 'Đồng tiền đó không được cung cấp cho hóa đơn này. Hãy chọn một đồng trong danh sách.',
    busy: 'Cổng thanh toán đang bận. Hãy thử lại sau giây lát.',
    invalid: 'Hãy chọn một đồng tiền trong danh sách.',
    email: 'Địa chỉ email này không hợp lệ. Hãy sửa lại hoặc để trống ô này.',
    choices:
      'Bạn đã đổi đồng tiền nhiều lần nhất mà hóa đơn này cho phép. Hãy chọn một đồng tiền đã chọn trước đó khi yêu cầu thanh toán của nó vẫn còn hiệu lực, hoặc đề nghị cửa hàng lập hóa đơn mới.',
  },
  notFoundTitle: 'Không tìm thấy hóa đơn',
  notFoundBody: 'Không có hóa đơn nào ở liên kết này. Hãy kiểm tra liên kết mà cửa hàng đã gửi cho bạn.',
  goBack: 'Quay lại',
  home: 'Về trang chủ',
  screens: {
    choose: {
      title: 'Chọn cách thanh toán',
      body: 'Chọn một đồng tiền và mạng của nó. Số tiền cần gửi được cố định khi bạn chọn.',
    },
    pay: {
      title: 'Đang thanh toán',
      body: 'Đã phát hiện một khoản thanh toán cho hóa đơn này. Hãy theo dõi trên trang thanh toán.',
    },
    paid: {
      title: 'Đã thanh toán',
      body: 'Cảm ơn bạn: hóa đơn này đã được thanh toán.',
    },
    expired: {
      title: 'Hóa đơn này đã hết hạn',
      body: 'Thời gian thanh toán đã hết. Đừng gửi tiền cho hóa đơn này; hãy yêu cầu cửa hàng gửi hóa đơn mới.',
    },
    closed: {
      title: 'Thanh toán chưa hoàn tất',
      body: 'Hóa đơn này đã đóng mà chưa được thanh toán đủ. Trang thanh toán cho biết số tiền đã nhận; hãy liên hệ người bán.',
    },
  },
};

export const walletMessages: WalletMessages = {
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
};
