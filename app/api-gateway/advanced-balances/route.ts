import { apiRoute } from '@/lib/api/route';
import { emptyRequest } from '@/lib/api/protocol';
import { advancedBalances } from '@/lib/merchants/balances';

export const POST = apiRoute('advanced-balances', emptyRequest, ({ db, key }) => advancedBalances(db, key));
