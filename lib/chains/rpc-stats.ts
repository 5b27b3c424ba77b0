/** What a live adapter asked its node: HTTP requests and JSON-RPC calls (a batch is one request). */
export class RpcStats {
  requests = 0;
  calls = 0;

  request(calls: number): void {
    this.requests += 1;
    this.calls += calls;
  }

  snapshot(): { requests: number; calls: number } {
    return { requests: this.requests, calls: this.calls };
  }
}
