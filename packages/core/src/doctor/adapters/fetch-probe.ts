import type { HttpAnswer, HttpProbe } from "../ports.js";

/** A GET with `fetch`, answered once the status comes (the body is not read), within the time-out. */
export const fetchProbe: HttpProbe = {
  async get(url: string, timeoutMs: number): Promise<HttpAnswer> {
    const started = performance.now();
    try {
      const response = await fetch(url, { redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
      await response.body?.cancel();
      return { status: response.status, ms: Math.round(performance.now() - started) };
    } catch (error) {
      if (error instanceof Error && error.name === "TimeoutError")
        return { error: `no answer within ${timeoutMs} ms` };
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
      return { error: `could not be reached${cause ? `: ${cause}` : ""}` };
    }
  },
};
