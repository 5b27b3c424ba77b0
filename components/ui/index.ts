/**
 * The dashboard's component kit (docs/decisions/089): one button, input, field, table, badge,
 * dialog and disclosure, on Radix primitives where focus and keyboard handling are involved. Only the
 * dashboard imports it; the payer's pages (components/pay, invoice, link, store, subscription) do not.
 */
export { Badge, StatusBadge, statusTone, type BadgeTone } from './badge';
export { Button, type ButtonProps, type ButtonVariant } from './button';
export { Dialog } from './dialog';
export { Disclosure } from './disclosure';
export { Field, Label } from './field';
export { FileInput, Input, Select, Textarea } from './input';
export { CELL, DataTable, EmptyState, Pager, type ColumnTitle } from './table';
