import { apiRoute } from '@/lib/api/route';
import { getDepositRequest } from '@/lib/api/protocol';
import { getDeposit, serializeDeposit } from '@/lib/deposits';

export const POST = apiRoute('orphan-deposits/get-deposit', getDepositRequest, async ({ db, key }, { id }) =>
  serializeDeposit(await getDeposit(db, key, id)),
);
