/**
 * The API reference page (/docs/api, docs/decisions/087): the OpenAPI document the API serves at
 * /api-gateway/openapi.json (generated from lib/protocol), rendered in the browser by Scalar
 * (@scalar/api-reference). A whole HTML document of its own rather than a Next.js page: Scalar is
 * a Vue application that owns the DOM it mounts into, and React's hydration of the same document
 * would fight it; nor does the page need any of the app's scripts.
 *
 * Everything it loads comes from the gateway (./assets): Scalar's prebuilt module and its chunks,
 * and Noto Sans, so no font is fetched from Scalar's font server (`withDefaultFonts: false`). Under
 * the pages' strict CSP (proxy.ts) the one inline module carries the request's nonce; the modules
 * it imports are trusted through it ('strict-dynamic'). The mount point is not `#api-reference`: the
 * module mounts a second reference, with Scalar's defaults and fonts, into an element of that id. The styles Scalar writes at run time are
 * allowed by the policy's `style-src 'unsafe-inline'`, which every page already has.
 */

export const ASSETS = '/docs/api/assets';
/** The Latin slice of Noto Sans, variable weight (@fontsource-variable/noto-sans). */
export const REFERENCE_FONT = 'noto-sans-latin-wght-normal.woff2';

/**
 * Scalar's configuration: nothing reaches Scalar's services (no telemetry, fonts, MCP or agent),
 * no developer toolbar, and no "Test request" client nor generated snippets: a request must be
 * signed with the private key over its exact body (the document's introduction says how), which
 * they cannot do. The examples are the document's own (`x-codeSamples`: curl signing with openssl,
 * and Node).
 */
const CONFIGURATION = {
  url: '/api-gateway/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  showDeveloperTools: 'never',
  hideClientButton: true,
  hideTestRequestButton: true,
  // Scalar's generated snippets cannot sign either: only the document's own (x-codeSamples), which do.
  hiddenClients: true,
  mcp: { disabled: true },
  agent: { disabled: true },
  documentDownloadType: 'json',
  // The sidebar and headings name each operation by its path (`/api-gateway/make-order`): the name a client calls.
  operationTitleSource: 'path',
  persistAuth: false,
};

/** A value as JavaScript inside an inline script: `<` escaped, so no `</script>` can end it early. */
function scriptValue(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The page; `nonce` is the request's script nonce (null: no script runs, the fallback shows). */
export function referencePage(nonce: string | null): string {
  const script =
    nonce === null
      ? ''
      : `<script type="module" nonce="${nonce}">
import { createApiReference } from '${ASSETS}/scalar/standalone.esm.js';
createApiReference('#reference', ${scriptValue(CONFIGURATION)});
</script>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Merchant API reference</title>
<link rel="icon" href="/icon.svg" type="image/svg+xml">
<link rel="preload" href="${ASSETS}/${REFERENCE_FONT}" as="font" type="font/woff2" crossorigin>
<style>
@font-face {
  font-family: 'Noto Sans Variable';
  font-style: normal;
  font-display: swap;
  font-weight: 100 900;
  src: url('${ASSETS}/${REFERENCE_FONT}') format('woff2-variations');
}
:root {
  --scalar-font: 'Noto Sans Variable', system-ui, sans-serif;
  --scalar-font-code: ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', monospace;
}
body { margin: 0; }
/* The key entry of Scalar's test client, which cannot sign a request (hidden above): the introduction says how to sign. */
body .scalar-app .scalar-reference-intro-auth { display: none; }
/* Code wraps rather than scrolls sideways: readable on a phone, and no scrolled region a keyboard cannot reach. */
html body .scalar-app .markdown pre code.hljs { white-space: pre-wrap; overflow-wrap: anywhere; overflow: visible; max-height: none; }
/* Text colours that meet WCAG AA contrast on Scalar's backgrounds, where its defaults fall short. */
body.light-mode { --scalar-color-3: #6b6b6b; --scalar-color-green: #00774b; --scalar-color-orange: #b3410b; }
body.dark-mode { --scalar-color-3: #8c8c8c; }
</style>
</head>
<body>
<noscript>
<main style="font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem">
<h1>Merchant API reference</h1>
<p>This page renders the API's OpenAPI document with JavaScript. Without it, read the document itself:
<a href="/api-gateway/openapi.json">/api-gateway/openapi.json</a> (OpenAPI 3.1).</p>
</main>
</noscript>
<div id="reference"></div>
${script}
</body>
</html>
`;
}
