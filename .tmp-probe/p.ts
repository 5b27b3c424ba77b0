import { z } from 'zod';
import { OPERATIONS } from '../lib/protocol/operations';
for (const [name, op] of Object.entries(OPERATIONS)) {
  try {
    z.toJSONSchema(op.request, { io: 'input', target: 'draft-2020-12', unrepresentable: 'any' });
    z.toJSONSchema(op.response, { io: 'output', target: 'draft-2020-12', unrepresentable: 'any' });
  } catch (e) { console.log(name, (e as Error).message); }
}
console.log(JSON.stringify(z.toJSONSchema(OPERATIONS['orphan-deposits/get-deposits'].request, { io: 'input', unrepresentable: 'any' })).slice(0, 600));
