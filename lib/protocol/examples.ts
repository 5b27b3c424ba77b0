/**
 * Example answers for the OpenAPI document (./openapi), generated from the JSON Schema of each
 * operation's response schema (./operations), never written by hand: a field added to a schema
 * appears in its example, and a value is only ever one its own schema accepts (its enum, its
 * constant, its pattern and bounds). The values read as one story: one order of 125.50 USDT on Tron,
 * the ids of the request examples.
 *
 * The contract tests check every example against the zod schema and the document's JSON Schema
 * (tests/openapi-examples.test.ts), as they check the gateway's own answers.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: JsonSchema | boolean;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  default?: unknown;
};

/** The id every example uses, as the request examples do. */
export const EXAMPLE_ID = '6f1c1b1e-8f7a-4c4b-9a55-2d0f5f0b8e21';
/** The time every example is stamped with. */
export const EXAMPLE_TIME = '2026-11-24T20:26:40.000Z';

const TX_HASH = '5c504ed432cb51138bcf09aa5e8a410dd4a1e204ef84bfed1be16dfba1b22060';
const ADDRESS = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/**
 * A value for a field by its name, tried before anything generic; kept only when the field's
 * schema accepts it (`status` of an order is an enum, of a transaction a plain string). A field
 * that may be null and is not named here is null.
 */
const BY_FIELD: Record<string, unknown> = {
  amount: '125.50',
  received: '125.50',
  currency: 'USDT',
  network: 'tron',
  address: ADDRESS,
  treasury: ADDRESS,
  tx: TX_HASH,
  txId: TX_HASH,
  txHash: TX_HASH,
  txid: TX_HASH,
  hash: TX_HASH,
  order: 'shop-1001',
  clientOrderId: 'shop-1001',
  externalId: 'inv-1001',
  payerEmail: 'ana@example.com',
  email: 'ana@example.com',
  description: 'Order 1001',
  title: 'Workshop ticket',
  paymentTolerancePercent: '1',
  rate: '1.0002',
  fee: '0.000226',
  feeAmount: '1.1',
  link: 'https://pay.example/pay/6f1c1b1e-8f7a-4c4b-9a55-2d0f5f0b8e21',
  url: 'https://shop.example/hooks/gateway',
  returnUrl: 'https://shop.example/orders/1001',
  successWebhook: 'https://shop.example/hooks/ok',
  confirmations: 19,
  status: 'confirmed',
  stage: 'DEPOSIT',
  eventType: 'order.processed',
  language: 'en',
  decimals: 6,
  hasMore: false,
  total: 1,
  limit: 20,
  offset: 0,
  lifetime: 3600,
  regex: '^T[1-9A-HJ-NP-Za-km-z]{33}$',
  secret: 'whsec_3q2lU4uXhzJ0bV9cQm6Kx1YtN8PfR5aD',
  masterFingerprint: 'f23a9c0e',
  path: "m/84'/2'/0'/0/7",
  // A gas-left line whose figures are null (the generic null of a nullable field) says so: not read.
  read: false,
};

/** Strings tried in turn for a string field its name and format say nothing about. */
const ANY_STRING = ['Text', '125.50', EXAMPLE_ID, TX_HASH, '1', 'a'];

function accepts(schema: JsonSchema, value: string): boolean {
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) return false;
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  return true;
}

function stringFor(schema: JsonSchema, field: string | undefined): string {
  const named = field === undefined ? undefined : BY_FIELD[field];
  const byFormat: Record<string, string> = {
    'date-time': EXAMPLE_TIME,
    uri: typeof named === 'string' && named.startsWith('https://') ? named : 'https://shop.example/',
    email: 'ana@example.com',
    uuid: EXAMPLE_ID,
  };
  const idLike = field !== undefined && /(^id|Id)$/.test(field) ? [EXAMPLE_ID] : [];
  const candidates = [
    ...(schema.format && byFormat[schema.format] ? [byFormat[schema.format]!] : []),
    ...(typeof named === 'string' ? [named] : []),
    ...idLike,
    ...ANY_STRING,
  ];
  // Nothing fits a pattern of none of these: the contract test names the field to add a value for.
  return candidates.find((candidate) => accepts(schema, candidate)) ?? candidates[0]!;
}

function numberFor(schema: JsonSchema, field: string | undefined): number {
  const named = field === undefined ? undefined : BY_FIELD[field];
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
  const wanted = typeof named === 'number' ? named : Math.max(low, 1);
  return Math.min(Math.max(wanted, low), schema.maximum ?? Number.MAX_SAFE_INTEGER);
}

/** An example value of a JSON Schema (zod's output), `field` the property it is the value of. */
export function exampleOf(schema: JsonSchema, field?: string, root: JsonSchema = schema): unknown {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/$defs/', '');
    return exampleOf(root.$defs?.[name] ?? {}, field, root);
  }
  if ('const' in schema) return schema.const;
  const named = field === undefined ? undefined : BY_FIELD[field];
  if (schema.enum) return schema.enum.includes(named) ? named : schema.enum[0];
  const choices = schema.anyOf ?? schema.oneOf;
  // A field that may be null is null, as on a fresh object, unless its name has a value here.
  const nullable =
    choices?.some((choice) => choice.type === 'null') || (Array.isArray(schema.type) && schema.type.includes('null'));
  if (nullable && (named === undefined || named === null)) return null;
  if (choices) return exampleOf(choices.find((choice) => choice.type !== 'null') ?? choices[0]!, field, root);
  if (schema.allOf)
    return Object.assign({}, ...schema.allOf.map((part) => exampleOf(part, field, root) as Record<string, unknown>));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = Object.entries(schema.properties ?? {});
      if (properties.length === 0 && typeof schema.additionalProperties === 'object')
        return { [field === undefined ? 'key' : 'name']: exampleOf(schema.additionalProperties, undefined, root) };
      return Object.fromEntries(properties.map(([name, property]) => [name, exampleOf(property, name, root)]));
    }
    case 'array': {
      if (schema.prefixItems) return schema.prefixItems.map((item) => exampleOf(item, field, root));
      const item = exampleOf(schema.items ?? {}, field, root);
      return Array.from({ length: Math.max(schema.minItems ?? 1, 1) }, () => item);
    }
    case 'string':
      return stringFor(schema, field);
    case 'integer':
    case 'number':
      return numberFor(schema, field);
    case 'boolean':
      return typeof named === 'boolean' ? named : true;
    case 'null':
      return null;
    default:
      // z.unknown(): any JSON; an empty object says so without inventing a shape.
      return {};
  }
}
