import { apiRoute } from '@/lib/api/route';
import { findTxRequest } from '@/lib/api/protocol';
import { findOperations } from '@/lib/operations';

export const POST = apiRoute('find-tx', findTxRequest, ({ db, key }, { tx }) => findOperations(db, key, tx));
