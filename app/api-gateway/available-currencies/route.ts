import { apiRoute } from '@/lib/api/route';
import { emptyRequest } from '@/lib/api/protocol';
import { availableCurrencies } from '@/lib/catalog/available';

export const POST = apiRoute('available-currencies', emptyRequest, async ({ key }) => availableCurrencies(key.mode));
