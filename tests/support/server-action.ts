import { randomBytes } from 'node:crypto';
import http from 'node:http';

/**
 * A dashboard server action called over HTTP the way the page's script calls it, from a chosen
 * local address: the browser tests' stranger (e2e/dashboard-auth.spec.ts) and the HTTP tests of
 * client addresses (tests/trusted-proxies.pg.test.ts). The action's id comes from the page
 * (e2e/support/dashboard.ts serverAction, or the form's hidden `$ACTION_n:0` field).
 */

/**
 * Calls a form's server action as the page's script does (`Next-Action`, the form's fields as the
 * action's FormData) from the local address `from` (127.0.0.2 and up are distinct clients on
 * Linux), with any extra `headers`; answers the status, the headers (`x-action-redirect` when the
 * action redirected) and the body (the action's answer).
 */
export function callServerAction(
  url: string,
  actionId: string,
  fields: Record<string, string>,
  options: { from?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const target = new URL(url);
  const boundary = `----e2e${randomBytes(8).toString('hex')}`;
  // As React encodes the call (prevState, formData): the FormData's fields under `_1_`, then the arguments.
  const parts: [string, string][] = [
    ...Object.entries(fields).map(([k, v]) => [`_1_${k}`, v] as [string, string]),
    ['0', '[{},"$K1"]'],
  ];
  const body = Buffer.from(
    parts
      .map(([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') + `--${boundary}--\r\n`,
  );
  return new Promise((resolve, reject) => {
    const request = http.request(
      target,
      {
        method: 'POST',
        // A connection of its own from `from` (a client of its own on Linux's 127.0.0.0/8), closed
        // after the answer: one kept alive could meet the server closing it after 5 s idle.
        localAddress: options.from ?? '127.0.0.1',
        agent: false,
        headers: {
          connection: 'close',
          origin: target.origin,
          'next-action': actionId,
          accept: 'text/x-component',
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': String(body.length),
          ...options.headers,
        },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
