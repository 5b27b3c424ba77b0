import 'server-only';
/**
 * A small JSON-RPC 2.0 client for one Solana node (https://solana.com/docs/rpc: `{"jsonrpc":"2.0",
 * "id":1,"method":"getSlot","params":[...]}` over HTTP POST, answered `{"result": ...}` or
 * `{"error": {"code", "message"}}`). Every answer is checked with a zod schema before it leaves this
 * folder. One node per client: failover over several URLs wraps the adapter (../failover).
 * Credentials (a proxy in front of the node) go in a header only; the URL, which a provider's API
 * key may be part of, is never written into an error: the node is named by its origin.
 */
import type { z } from 'zod';
import type { RpcEndpoint } from '../../config';
import { originOf } from '../failover';
import { describeNetworkError, postRead } from '../network-error';
import { RpcStats } from '../rpc-stats';

export class SolanaRpcError extends Error {
  override name = 'SolanaRpcError';
  constructor(
    message: string,
    /** The node's JSON-RPC error code, when it answered one (-32007: the slot was skipped...). */
    readonly code?: number,
  ) {
    super(message);
  }
}

export class SolanaRpcClient {
  readonly stats = new RpcStats();
  /** Names the node in errors: "solana node at https://host:8899". */
  readonly label: string;
  private readonly headers: Record<string, string> = { 'content-type': 'application/json' };
  private id = 0;

  constructor(
    private readonly endpoint: RpcEndpoint,
    network: string,
  ) {
    this.label = `${network} node at ${originOf(endpoint.url)}`;
    if (endpoint.user !== undefined) {
      this.headers.authorization = `Basic ${Buffer.from(`${endpoint.user}:${endpoint.password ?? ''}`).toString('base64')}`;
    }
  }

  async call<S extends z.ZodType>(method: string, params: unknown[], schema: S): Promise<z.output<S>> {
    this.stats.request(1);
    let response: Response;
    try {
      response = await postRead(
        this.endpoint.url,
        { headers: this.headers, body: JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method, params }) },
        this.endpoint.timeoutMs,
      );
    } catch (error) {
      const reason =
        (error as Error)?.name === 'TimeoutError'
          ? `no answer within ${this.endpoint.timeoutMs} ms`
          : describeNetworkError(error);
      throw new SolanaRpcError(`${this.label} is unreachable: ${reason}`);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 401 || response.status === 403)
      throw new SolanaRpcError(`${this.label} refused the credentials (HTTP ${response.status})`);
    if (response.status === 429) throw new SolanaRpcError(`${this.label} is rate limiting (HTTP 429) ${method}`);
    let body: { result?: unknown; error?: { code?: unknown; message?: unknown } };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      throw new SolanaRpcError(`${this.label} answered HTTP ${response.status} without JSON to ${method}`);
    }
    if (body?.error && typeof body.error === 'object') {
      const code = typeof body.error.code === 'number' ? body.error.code : undefined;
      const message = typeof body.error.message === 'string' ? body.error.message.slice(0, 200) : 'no message';
      throw new SolanaRpcError(`${this.label}: ${method} failed (${code ?? 'no code'}): ${message}`, code);
    }
    if (!body || typeof body !== 'object' || !('result' in body))
      throw new SolanaRpcError(`${this.label} answered HTTP ${response.status} without a result to ${method}`);
    const parsed = schema.safeParse(body.result);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new SolanaRpcError(
        `${this.label}: unexpected answer to ${method} at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
      );
    }
    return parsed.data;
  }
}
