// The part of autocannon 8 that the benchmark uses (the package ships no types and adding
// @types/autocannon is not worth a dependency for one script).
declare module 'autocannon' {
  interface RequestParams {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }
  interface Request extends RequestParams {
    /** Called before every request: answers the request to send (a fresh body, say). */
    setupRequest?: (request: RequestParams, context: Record<string, unknown>) => RequestParams;
  }
  interface Options extends RequestParams {
    url: string;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** Seconds without an answer before a request counts as a timeout and its socket is reset. */
    timeout?: number;
    overallRate?: number;
    requests?: Request[];
  }
  interface Histogram {
    average: number;
    p50: number;
    p90: number;
    p99: number;
    max: number;
    total: number;
  }
  interface Result {
    latency: Histogram;
    requests: Histogram;
    /** Seconds. */
    duration: number;
    errors: number;
    timeouts: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
