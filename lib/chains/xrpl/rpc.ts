import 'server-only';
/**
 * A small JSON-RPC client for rippled (https://xrpl.org/docs/tutorials/http-websocket-apis/build-apps/get-started
 * "JSON-RPC": `{"method": "ledger", "params": [{...}]}` over HTTP POST, answered `{"result": {...}}`).
 * rippled reports a failed request inside `result` (`status: "error"`, `error: "lgrNotFound"`,
 * https://xrpl.org/docs/references/http-websocket-apis/api-conventions/error-formatting), not as a
 * JSON-RPC error object; both are turned into an RpcError naming the method. Every answer is
 * checked with a zod schema before it leaves this folder. One node per client: failover over
 * several URLs is meant to wrap this class. Credentials (a proxy in front of the node) go in a
 * header only, never into an error message.
 */
import type { z } from 'zod';
import type { RpcEndpoint } from '../../config';
import { describeNetworkError, postRead } from '../network-error';
import { RpcStats } from '../rpc-stats';

export class XrplRpcError extends Error {
  override name = 'XrplRpcError';
  constructor(
    message: string,
    /** rippled's error token ("lgrNotFound", "noNetwork"...), when it answered one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export class RippledClient {
  readonly stats = new RpcStats();
  private readonly headers: Record<string, string> = { 'content-type': 'application/json' };

  constructor(
    private readonly endpoint: RpcEndpoint,
    /** Names the node in errors: "ripple node at http://127.0.0.1:5005/". */
    readonly label: string,
  ) {
    if (endpoint.user !== undefined) {
      this.headers.authorization = `Basic ${Buffer.from(`${endpoint.user}:${endpoint.password ?? ''}`).toString('base64')}`;
    }
  }

  /** One method call (rippled's JSON-RPC takes no batches): `params` is the request object. */
  async call<S extends z.ZodType>(method: string, params: Record<string, unknown>, schema: S): Promise<z.output<S>> {
    this.stats.request(1);
    let response: Response;
    try {
      response = await postRead(
        this.endpoint.url,
        { headers: this.headers, body: JSON.stringify({ method, params: [params] }) },
        this.endpoint.timeoutMs,
      );
    } catch (error) {
      const reason =
        (error as Error)?.name === 'TimeoutError'
          ? `no answer within ${this.endpoint.timeoutMs} ms`
          : describeNetworkError(error);
      throw new XrplRpcError(`${this.label} is unreachable: ${reason}`);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 401 || response.status === 403)
      throw new XrplRpcError(`${this.label} refused the credentials (HTTP ${response.status})`);
    let body: { result?: unknown; error?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new XrplRpcError(`${this.label} answered HTTP ${response.status} without JSON`);
    }
    const result = body?.result as { status?: unknown; error?: unknown; error_message?: unknown } | undefined;
    if (!result || typeof result !== 'object')
      throw new XrplRpcError(`${this.label} answered HTTP ${response.status} without a result to ${method}`);
    if (result.status === 'error' || typeof result.error === 'string') {
      const code = typeof result.error === 'string' ? result.error : 'unknown';
      const detail = typeof result.error_message === 'string' ? `: ${result.error_message}` : '';
      throw new XrplRpcError(`${this.label}: ${method} failed: ${code}${detail}`, code);
    }
    const parsed = schema.safeParse(result);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new XrplRpcError(
        `${this.label}: unexpected answer to ${method} at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
      );
    }
    return parsed.data;
  }
}
