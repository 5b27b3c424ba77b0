import 'server-only';
/**
 * The HTTP connection to one java-tron full node (or TronGrid, which serves the same API): POST
 * with a JSON body to `/wallet/*` and `/walletsolidity/*`, a timeout, TronGrid's
 * `TRON-PRO-API-KEY` header when configured, a count of what is asked (`npm run bench:chains`),
 * and every answer checked with a zod schema before it leaves this folder. No retries (the
 * watcher's next pass is the retry) beyond postRead's one for a stale keep-alive connection. The
 * API key is a secret: it goes in a header only, and errors name the node by its URL without path
 * or query.
 *
 * One class per node URL, so that failover over several URLs can wrap it later.
 */
import type { z } from 'zod';
import type { RpcEndpoint } from '../../config';
import { describeNetworkError, postRead } from '../network-error';
import { RpcStats } from '../rpc-stats';

export class TronNodeError extends Error {
  override name = 'TronNodeError';
}

// java-tron writes amounts in sun as JSON numbers (`"amount": 1000000`); TRX's supply in sun is
// beyond 2^53, so they are read as text and never pass through a float.
const AMOUNT_FIELDS = /("amount"\s*:\s*)(\d+)/g;

export class TronNode {
  readonly stats = new RpcStats();
  /** The node as error messages name it: "tron node at http://127.0.0.1:8090". */
  readonly label: string;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly endpoint: RpcEndpoint,
    network: string,
    apiKey?: string,
  ) {
    const url = new URL(endpoint.url);
    this.label = `${network} node at ${url.origin}`;
    this.headers = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey !== undefined) this.headers['TRON-PRO-API-KEY'] = apiKey;
    if (endpoint.user !== undefined) {
      this.headers.authorization = `Basic ${Buffer.from(`${endpoint.user}:${endpoint.password ?? ''}`).toString('base64')}`;
    }
  }

  /** POSTs `body` to `path` (e.g. "wallet/getblock") and answers the node's JSON checked by `schema`. */
  async post<S extends z.ZodType>(path: string, body: Record<string, unknown>, schema: S): Promise<z.output<S>> {
    this.stats.request(1);
    let response: Response;
    try {
      const url = new URL(path, this.endpoint.url.endsWith('/') ? this.endpoint.url : `${this.endpoint.url}/`);
      response = await postRead(url, { headers: this.headers, body: JSON.stringify(body) }, this.endpoint.timeoutMs);
    } catch (error) {
      const reason =
        (error as Error)?.name === 'TimeoutError'
          ? `no answer within ${this.endpoint.timeoutMs} ms`
          : describeNetworkError(error);
      throw new TronNodeError(`${this.label} is unreachable: ${reason}`);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 401 || response.status === 403)
      throw new TronNodeError(`${this.label} refused the API key (HTTP ${response.status}): check TRON_API_KEY`);
    if (response.status === 429)
      throw new TronNodeError(
        `${this.label} is rate-limiting /${path} (HTTP 429): set TRON_API_KEY or use your own node`,
      );
    if (!response.ok) throw new TronNodeError(`${this.label} answered HTTP ${response.status} to /${path}`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.replace(AMOUNT_FIELDS, '$1"$2"'));
    } catch {
      throw new TronNodeError(`${this.label} answered /${path} without JSON`);
    }
    // java-tron answers a refused request with HTTP 200 and {"Error": "..."}.
    if (parsed && typeof parsed === 'object' && 'Error' in parsed) {
      throw new TronNodeError(
        `${this.label}: /${path} failed: ${String((parsed as { Error: unknown }).Error).slice(0, 200)}`,
      );
    }
    const checked = schema.safeParse(parsed);
    if (!checked.success) {
      const issue = checked.error.issues[0]!;
      throw new TronNodeError(
        `${this.label}: unexpected answer to /${path} at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
      );
    }
    return checked.data;
  }
}
