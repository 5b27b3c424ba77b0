import 'server-only';
/**
 * A small JSON-RPC client for the Bitcoin Core interface (bitcoind, litecoind, Bitcoin Cash Node,
 * dogecoind): fetch with a timeout, HTTP basic credentials, batches, and every answer checked with
 * a zod schema before it leaves this folder. Credentials are secrets: they go in a header only and
 * never into an error message or a log line (errors name the node by its URL without them).
 */
import type { z } from 'zod';
import type { RpcEndpoint } from '../../config';
import { describeNetworkError, postRead } from '../network-error';
import { RpcStats } from '../rpc-stats';

export class RpcError extends Error {
  override name = 'RpcError';
  constructor(
    message: string,
    /** The node's JSON-RPC error code, when it answered one. */
    readonly code?: number,
    /** The node's own message, when it answered an error (without the node's address, unlike `message`). */
    readonly nodeMessage?: string,
  ) {
    super(message);
  }
}

export interface RpcCall {
  method: string;
  params: unknown[];
}

// Amounts are JSON numbers with 8 decimals ("value": 0.12345678; a mempool entry's "fee" and its
// "fees" "base"): read as text so that no amount ever passes through a float (Dogecoin's supply is
// beyond 2^53 base units).
const AMOUNT_FIELDS = /("(?:value|fee|base)"\s*:\s*)(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)/g;

export class JsonRpcClient {
  readonly stats = new RpcStats();
  private readonly headers: Record<string, string>;
  private nextId = 1;

  constructor(
    private readonly endpoint: RpcEndpoint,
    /** Names the node in errors: "litecoin node at http://127.0.0.1:9332/". */
    private readonly label: string,
  ) {
    this.headers = { 'content-type': 'application/json' };
    if (endpoint.user !== undefined) {
      this.headers.authorization = `Basic ${Buffer.from(`${endpoint.user}:${endpoint.password ?? ''}`).toString('base64')}`;
    }
  }

  async call<S extends z.ZodType>(method: string, params: unknown[], schema: S): Promise<z.output<S>> {
    const [answer] = await this.send([{ method, params }]);
    return this.check(method, answer!, schema);
  }

  /**
   * Several calls in one HTTP request; answers in the order asked. A call the node answers with an
   * error yields that RpcError in its slot (the caller decides: a mempool transaction may be gone).
   */
  async batch<S extends z.ZodType>(calls: RpcCall[], schema: S): Promise<(z.output<S> | RpcError)[]> {
    if (calls.length === 0) return [];
    const answers = await this.send(calls);
    return answers.map((answer, i) => {
      try {
        return this.check(calls[i]!.method, answer, schema);
      } catch (error) {
        if (error instanceof RpcError && error.code !== undefined) return error;
        throw error;
      }
    });
  }

  private check<S extends z.ZodType>(method: string, answer: Answer, schema: S): z.output<S> {
    if (answer.error)
      throw new RpcError(
        `${this.label}: ${method} failed: ${answer.error.message} (code ${answer.error.code})`,
        answer.error.code,
        answer.error.message,
      );
    const parsed = schema.safeParse(answer.result);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new RpcError(
        `${this.label}: unexpected answer to ${method} at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
      );
    }
    return parsed.data;
  }

  private async send(calls: RpcCall[]): Promise<Answer[]> {
    const ids = calls.map(() => this.nextId++);
    const body = calls.map((c, i) => ({ jsonrpc: '1.0', id: ids[i], method: c.method, params: c.params }));
    this.stats.request(calls.length);
    let response: Response;
    try {
      response = await postRead(
        this.endpoint.url,
        { headers: this.headers, body: JSON.stringify(calls.length === 1 ? body[0] : body) },
        this.endpoint.timeoutMs,
      );
    } catch (error) {
      const reason =
        (error as Error)?.name === 'TimeoutError'
          ? `no answer within ${this.endpoint.timeoutMs} ms`
          : describeNetworkError(error);
      throw new RpcError(`${this.label} is unreachable: ${reason}`);
    }
    const text = await response.text().catch(() => '');
    if (response.status === 401 || response.status === 403)
      throw new RpcError(`${this.label} refused the RPC credentials (HTTP ${response.status})`);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.replace(AMOUNT_FIELDS, '$1"$2"'));
    } catch {
      throw new RpcError(`${this.label} answered HTTP ${response.status} without JSON`);
    }
    const answers = (Array.isArray(parsed) ? parsed : [parsed]) as Answer[];
    const byId = new Map(answers.map((a) => [a?.id, a]));
    return ids.map((id, i) => {
      const answer = byId.get(id) ?? (answers.length === 1 && calls.length === 1 ? answers[0] : undefined);
      if (!answer || typeof answer !== 'object')
        throw new RpcError(`${this.label} answered HTTP ${response.status} without an answer to ${calls[i]!.method}`);
      return answer;
    });
  }
}

interface Answer {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string } | null;
}
