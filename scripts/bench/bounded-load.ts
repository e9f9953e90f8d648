import autocannon from "autocannon";

export interface LoadOptions {
  /** `http://127.0.0.1:<port>`: the only part of a request autocannon is told up front. */
  origin: string;
  /** Each request's path, asked anew per request (it may hold a secret: see `boundedLoad`). */
  path: () => string;
  connections: number;
  seconds: number;
}

export interface LoadFigures {
  /** Responses in the measured run. */
  requests: number;
  /** The mean of the per-second counts. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  /** Responses by status code. */
  statuses: Record<string, number>;
  /** Connection errors and time-outs. */
  errors: number;
}

/**
 * `seconds` of a closed loop of `connections` keep-alive connections, each sending its next request
 * when the last is answered. Only figures come back, and autocannon prints nothing when used this
 * way (no `track`, no `printResult`, no `debug`); paths, which may hold a share token, reach it
 * through `setupRequest` alone, so not even its result's `url` has one.
 */
export async function boundedLoad(options: LoadOptions): Promise<LoadFigures> {
  const result = await autocannon({
    url: options.origin,
    connections: options.connections,
    duration: options.seconds,
    requests: [{ method: "GET", setupRequest: (request) => ({ ...request, path: options.path() }) }],
  });
  return {
    requests: result.requests.total,
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    maxMs: result.latency.max,
    non2xx: result.non2xx,
    statuses: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {}).map(([status, stats]) => [status, stats.count ?? 0]),
    ),
    errors: result.errors,
  };
}
