/**
 * The wire contract of the merchant API, in one client-safe place (no server imports): request and
 * response schemas per operation, status values, the error table and envelopes. The API edge
 * (lib/api), the serializers, the typed client (lib/client) and the database schema's enums derive
 * from it; the seed's field names appear here and in the serializers, nowhere else.
 */
export * from './endpoints';
export * from './errors';
export * from './events';
export * from './funds';
export * from './decimal';
export * from './ids';
export * from './operations';
export * from './plans';
export * from './evm-plans';
export * from './solana-plans';
export * from './xrpl-plans';
export * from './refunds';
export * from './requests';
export * from './responses';
export * from './scopes';
export * from './status';
export * from './subscription-values';
export * from './unsupported';
export { openApiDocument, type OpenApiOperation } from './openapi';
