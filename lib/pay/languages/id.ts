/**
 * Indonesian. Unreviewed: written without a native reader's check (docs/languages.md); follows
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
  pageTitle: 'Bayar ke {merchant}',
  payTo: 'Pembayaran ke {merchant}',
  testMode: 'MODE UJI',
  testModeNote: 'Ini pesanan uji: tidak ada dana sungguhan yang berpindah. Gunakan “Simulasikan pembayaran” di bawah.',
  language: 'Bahasa',
  sendExactly: 'Kirim tepat',
  networkWarning: 'Kirim {currency} hanya di jaringan {network}. Dana yang dikirim di jaringan lain bisa hilang.',
  amount: 'Jumlah',
  address: 'Alamat',
  tag: 'Tag tujuan (Destination Tag)',
  tagWarningTitle: 'Tag tujuan (Destination Tag) wajib diisi',
  tagWarning:
    'Masukkan tag ini di dompet Anda. Tanpa tag ini, pembayaran Anda tidak dapat dicocokkan dengan pesanan ini dan bisa hilang.',
  qrChoice: 'Isi kode QR',
  qrWithAmount: 'Dengan jumlah',
  qrAddressOnly: 'Alamat saja',
  qrWithAmountAlt: 'Kode QR: tautan dompet untuk pembayaran ini',
  qrAddressOnlyAlt: 'Kode QR: alamat saja',
  qrAddressOnlyNote: 'Untuk dompet yang tidak bisa membaca tautan pembayaran: masukkan jumlahnya sendiri.',
  openWallet: 'Buka di dompet',
  copy: 'Salin',
  copied: 'Tersalin',
  copyAmount: 'Salin jumlah',
  copyAddress: 'Salin alamat',
  copyTag: 'Salin tag tujuan',
  description: 'Pesanan',
  orderTotal: 'Total pesanan',
  received: 'Diterima',
  remaining: 'Sisa',
  timeLeft: 'Sisa waktu',
  expiringSoon: 'Segera berakhir',
  timeUp: 'Waktu habis',
  confirmations: {
    other: '{k} dari {n} konfirmasi',
  },
  confirmationsEta: 'perkiraan waktu: {time}',
  waitingConfirmations: 'Pembayaran terdeteksi, menunggu konfirmasi',
  payments: 'Pembayaran',
  transaction: 'Transaksi',
  paymentStatus: {
    detected: 'Sedang dikonfirmasi',
    confirmed: 'Terkonfirmasi',
    reversed: 'Dibatalkan',
    rejected: 'Ditolak',
  },
  otherTransfers: 'Transfer lain ke alamat ini',
  otherTransfersNote: 'Transfer ini tidak dihitung untuk pesanan. Hubungi penjual tentang transfer ini.',
  lateLabel: 'setelah batas waktu',
  orderReference: 'Referensi pesanan',
  copyReference: 'Salin referensi pesanan',
  copyTransaction: 'Salin ID transaksi',
  contactTitle: 'Hubungi penjual',
  contactNote: 'Berikan referensi pesanan dan ID transaksi di bawah: keduanya mengidentifikasi pembayaran Anda.',
  returnToStore: 'Kembali ke toko',
  redirectIn: 'Kembali ke toko dalam {s} detik.',
  stayOnPage: 'Tetap di halaman ini',
  redirectCancelled: 'Anda akan tetap di halaman ini.',
  reconnecting: 'Menghubungkan ulang… Status yang ditampilkan mungkin sudah usang.',
  simulateTitle: 'Simulasikan pembayaran',
  simulateNote: 'Hanya mode uji: mengirim pembayaran di buku besar uji.',
  simulateFull: 'Penuh',
  simulatePartial: 'Sebagian',
  simulateOver: 'Lebih',
  simulateSent: 'Terkirim: {tx}',
  simulateFailed: 'Pembayaran simulasi gagal: {error}',
  notFoundTitle: 'Pesanan tidak ditemukan',
  notFoundBody: 'Tidak ada pesanan pembayaran di tautan ini. Periksa tautan yang diberikan toko kepada Anda.',
  invoicePrice: 'Harga',
  changeCoin: 'Ganti koin',
  screens: {
    awaiting: {
      title: 'Menunggu pembayaran',
      body: 'Kirim jumlah di bawah ke alamat di bawah. Halaman ini diperbarui sendiri.',
    },
    detected: {
      title: 'Pembayaran terdeteksi',
      body: 'Pembayaran Anda sedang dalam perjalanan dan menunggu konfirmasi jaringan.',
    },
    'partially-paid': {
      title: 'Dibayar sebagian',
      body: 'Sebagian jumlah sudah masuk. Kirim sisa jumlahnya sebelum waktu habis.',
    },
    paid: {
      title: 'Lunas',
      body: 'Terima kasih: pembayaran selesai.',
    },
    overpaid: {
      title: 'Lunas',
      body: 'Terima kasih: pembayaran selesai. Anda mengirim lebih dari jumlahnya; hubungi penjual tentang selisihnya.',
    },
    expired: {
      title: 'Kedaluwarsa',
      body: 'Waktu untuk membayar pesanan ini habis sebelum ada pembayaran masuk. Jangan kirim dana ke alamat ini lagi. Kembali ke toko untuk memesan ulang.',
    },
    underpaid: {
      title: 'Kurang bayar',
      body: 'Pesanan kedaluwarsa sebelum jumlah penuh diterima, dan tidak dapat dibayar lagi. Hubungi penjual untuk menyelesaikan pesanan atau mendapatkan pengembalian dana.',
    },
    'paid-late': {
      title: 'Dibayar terlambat',
      body: 'Sebuah pembayaran masuk setelah pesanan kedaluwarsa, sehingga tidak dihitung. Hubungi penjual untuk menyelesaikan pesanan atau mendapatkan pengembalian dana.',
    },
    error: {
      title: 'Masalah pembayaran',
      body: 'Penjual harus memeriksa pembayaran ini sebelum pesanan dapat diselesaikan. Hubungi penjual.',
    },
  },
};

export const invoiceMessages: InvoiceMessages = {
  pageTitle: 'Tagihan dari {merchant}',
  testModeNote: 'Ini tagihan uji: tidak ada dana sungguhan yang berpindah.',
  price: 'Harga',
  coins: 'Koin yang bisa Anda gunakan untuk membayar',
  searchLabel: 'Cari koin',
  searchHint: 'Ticker, nama, atau jaringan',
  searchCount: 'Koin yang ditampilkan: {shown} dari {total}',
  searchNone: 'Tidak ada koin yang cocok dengan pencarian Anda.',
  priceUnavailable: 'harga tidak tersedia',
  chosen: 'Pilihan Anda saat ini: {currency} di jaringan {network}.',
  continueWith: 'Lanjutkan dengan {currency} di jaringan {network}',
  chosenNote: 'Memilih koin lain menggantikan permintaan pembayaran ini: setelah itu jangan kirim dana ke alamatnya.',
  chooseAnother: 'Atau pilih koin lain',
  choosing: 'Menyiapkan pembayaran Anda…',
  continueToPayment: 'Lanjutkan ke pembayaran',
  paymentDetails: 'Lihat detail pembayaran',
  emailLabel: 'Alamat email (opsional)',
  emailHint:
    'Kami mengirim email tentang pembayaran ini ke sini dan, jika Anda mengirim terlalu banyak atau terlalu sedikit, tautan untuk meminta pengembalian dana.',
  errors: {
    closed: 'Tagihan ini tidak lagi menerima pilihan koin: sudah dibayar, ditutup, atau lewat waktu.',
    rate: 'Saat ini belum ada harga terbaru untuk koin itu. Coba lagi dalam satu menit, atau pilih koin lain.',
    'not-offered': 'Koin itu tidak ditawarkan untuk tagihan ini. Pilih salah satu dari daftar.',
    busy: 'Gateway pembayaran sedang sibuk. Coba lagi sebentar lagi.',
    invalid: 'Pilih koin dari daftar.',
    email: 'Alamat email itu tidak valid. Perbaiki, atau biarkan kolom ini kosong.',
    choices:
      'Anda sudah mengganti koin sebanyak yang diizinkan tagihan ini. Pilih koin yang sudah Anda pilih sebelumnya selama permintaan pembayarannya masih berjalan, atau minta tagihan baru ke toko.',
  },
  notFoundTitle: 'Tagihan tidak ditemukan',
  notFoundBody: 'Tidak ada tagihan di tautan ini. Periksa tautan yang diberikan toko kepada Anda.',
  goBack: 'Kembali',
  home: 'Ke halaman utama',
  screens: {
    choose: {
      title: 'Pilih cara membayar',
      body: 'Pilih koin dan jaringannya. Jumlah yang harus dikirim ditetapkan saat Anda memilih.',
    },
    pay: {
      title: 'Pembayaran sedang berjalan',
      body: 'Pembayaran untuk tagihan ini sudah terdeteksi. Pantau di halaman pembayaran.',
    },
    paid: {
      title: 'Lunas',
      body: 'Terima kasih: tagihan ini sudah dibayar.',
    },
    expired: {
      title: 'Tagihan ini sudah kedaluwarsa',
      body: 'Waktu pembayarannya sudah habis. Jangan kirim dana untuk tagihan ini; minta tagihan baru ke toko.',
    },
    closed: {
      title: 'Pembayaran tidak selesai',
      body: 'Tagihan ini ditutup tanpa pembayaran penuh. Halaman pembayaran menunjukkan apa yang diterima; hubungi penjual.',
    },
  },
};

export const walletMessages: WalletMessages = {
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
};
