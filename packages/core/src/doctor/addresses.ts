import { tsaEndpoint } from "../evidence/timestamp/tsa-url.js";
import { type Check, fail, pass, settle } from "./check.js";
import type { HttpAnswer, HttpProbe } from "./ports.js";

/**
 * The addresses the stage depends on answer within `timeoutMs`: any answer below 500 counts, as a
 * plain GET is not what a TSA serves (it takes POSTed queries) and the incident app answers 404 to
 * every path that is not a link.
 */
export function checkTsa(tsaUrl: string | undefined, http: HttpProbe, timeoutMs: number): Promise<Check[]> {
  const name = "Time-Stamp Authority";
  if (tsaUrl === undefined)
    return Promise.resolve([pass(name, "none configured: claim packs are not stamped")]);
  const endpoint = tsaEndpoint(tsaUrl);
  // The URL may hold credentials or an API key: only its shown form (none of them) is printed.
  if ("problem" in endpoint)
    return Promise.resolve([fail(name, endpoint.problem, "correct timestampAuthorityUrl in the stage file")]);
  return answers(
    name,
    endpoint.shown,
    () => http.get(endpoint.url.href, timeoutMs),
    "check the TSA's address (timestampAuthorityUrl in the stage file) and its status; packs made meanwhile are stamped once it answers",
  );
}

export function checkIncidentPages(baseUrl: string, http: HttpProbe, timeoutMs: number): Promise<Check[]> {
  return answers(
    "incident pages",
    baseUrl,
    () => http.get(`${baseUrl}/`, timeoutMs),
    "links in alerts do not open: check the incident API's custom domain and DNS, and the incident function's logs",
  );
}

function answers(
  name: string,
  shown: string,
  get: () => Promise<HttpAnswer>,
  remedy: string,
): Promise<Check[]> {
  return settle(
    name,
    async () => {
      const answer = await get();
      if ("error" in answer) return fail(name, `${shown}: ${answer.error}`, remedy);
      if (answer.status >= 500) return fail(name, `${shown} answered HTTP ${answer.status}`, remedy);
      return pass(name, `${shown} answered HTTP ${answer.status} in ${answer.ms} ms`);
    },
    remedy,
  );
}
