import type { Metadata } from 'next';
import { openApiDocument } from '@/lib/protocol';

export const metadata: Metadata = { title: 'API reference' };

/** A JSON Schema as one short line: its type, or its fields. */
function shape(schema: unknown): string {
  const s = (schema ?? {}) as {
    type?: string | string[];
    properties?: Record<string, unknown>;
    items?: unknown;
    anyOf?: unknown[];
    enum?: unknown[];
    allOf?: unknown[];
  };
  if (s.allOf)
    return s.allOf
      .map(shape)
      .filter((part) => part !== 'object {}')
      .join(' + ');
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf) return s.anyOf.map(shape).join(' | ');
  if (s.properties) return `{${Object.keys(s.properties).join(', ')}}`;
  if (s.type === 'array') return `${shape(s.items)}[]`;
  return Array.isArray(s.type) ? s.type.join(' | ') : (s.type ?? 'any');
}

/**
 * The merchant API reference, rendered on the server from the OpenAPI document the API serves at
 * /api-gateway/openapi.json (the same schemas the server validates with): no client code.
 */
export default function ApiReference() {
  const document = openApiDocument();
  const operations = Object.entries(document.paths);
  return (
    <main className="mx-auto max-w-4xl p-6">
      <h1 className="text-2xl font-semibold">Merchant API reference</h1>
      <p className="mt-4">{document.info.description}</p>
      <p className="mt-4">
        The machine-readable description:{' '}
        <a href="/api-gateway/openapi.json" className="font-medium underline">
          /api-gateway/openapi.json
        </a>{' '}
        (OpenAPI 3.1).
      </p>
      {operations.map(([path, { post }]) => (
        <section key={path} className="mt-8 border-t border-slate-200 pt-4 dark:border-slate-800">
          <h2 className="font-mono text-lg font-semibold wrap-anywhere" id={post.operationId}>
            {`POST ${path}`}
          </h2>
          <p className="mt-1">{post.summary}</p>
          <dl className="mt-2 grid grid-cols-[6rem_minmax(0,1fr)] gap-x-4 sm:grid-cols-[8rem_minmax(0,1fr)] gap-y-1 text-sm">
            <dt className="font-medium">Request</dt>
            <dd className="font-mono wrap-anywhere">{shape(post.requestBody.content['application/json'].schema)}</dd>
            {post.responses['200'] && (
              <>
                <dt className="font-medium">Answer</dt>
                <dd className="font-mono wrap-anywhere">
                  {shape(
                    (post.responses['200'].content['application/json'].schema.properties as Record<string, unknown>)
                      .response,
                  )}
                </dd>
              </>
            )}
            <dt className="font-medium">Errors</dt>
            <dd className="wrap-anywhere">
              {Object.entries(post.responses)
                .filter(([status]) => status !== '200')
                .map(
                  ([status, response]) =>
                    `${status}: ${Object.keys(response.content['application/json'].examples ?? {}).join(', ')}`,
                )
                .join('; ')}
            </dd>
          </dl>
        </section>
      ))}
    </main>
  );
}
