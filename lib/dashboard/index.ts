import 'server-only';
/**
 * The merchant dashboard's read models (issue 17): every function takes a scope (merchant and
 * mode) and never answers rows of another merchant or mode. Amounts leave as decimal strings in
 * coin units (lib/money), times as Dates. Lists are keyset pages on (created_at desc, id desc)
 * with opaque cursors; filters come from URL search params through zod schemas, and a bad one
 * raises `InvalidFilter` with a message for the page.
 */
export {
  listDeliveryItems,
  listDepositItems,
  resendDelivery,
  type DeliveryListItem,
  type DepositListItem,
} from './activity';
export { csvCell, countForExport, EXPORT_BATCH, exportOrdersCsv, type ExportKind, type ExportRange } from './export';
export { DEFAULT_EXPLORERS, explorerLink, isExplorerTemplate } from './explorers';
export {
  decodeCursor,
  DELIVERY_FILTERS,
  DEPOSIT_FILTERS,
  encodeCursor,
  EXPORT_PARAMS,
  InvalidFilter,
  MAX_SEARCH_LENGTH,
  ORDER_FILTERS,
  parseDeliveryFilters,
  parseExportParams,
  parseDepositFilters,
  parseOrderFilters,
  type PageCursor,
  type DeliveryFilters,
  type DepositFilters,
  type ExportParams,
  type OrderFilters,
  searchParamsObject,
  type SearchParams,
} from './filters';
export { MAX_PAGE_SIZE, type Page, type Position } from './keyset';
export {
  invoiceDetail,
  listInvoiceItems,
  listOrderItems,
  orderDetail,
  transactionLink,
  type DepositView,
  type DetailPayment,
  type InvoiceDetail,
  type InvoiceListItem,
  type ListFilters,
  type OrderDetail,
  type OrderEvent,
  type OrderListItem,
  type OrderListRow,
} from './orders';
export {
  overview,
  SERIES_DAYS,
  type ChainOverview,
  type CoinReceived,
  type Overview,
  type SeriesDay,
  type UsdTotals,
} from './overview';
export { chainState, type ChainState } from './chain-state';
export { ordersByStatusSince } from './order-days';
export { dayReport, type DayReport } from './day-report';
