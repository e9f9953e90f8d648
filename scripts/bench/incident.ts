import { randomBytes } from "node:crypto";
import { newShareToken } from "@fleet-alerts/core/share";
import { type Emulators, startEmulators } from "../../packages/local/src/emulators.js";
import { boundedLoad, type LoadFigures, type LoadOptions } from "./bounded-load.js";
import { forkIncidentServer } from "./remote-incident-server.js";
import { storeSharedIncident } from "./shared-incident.js";

export interface IncidentPageFigures {
  connections: number;
  warmUpSeconds: number;
  seconds: number;
  /** `GET /i/<token>` of one alert with stored evidence, through a live share link. */
  page: PathFigures & { bytes: number };
  /** `GET /i/<token>` with a new well-formed token each request, never issued: an attacker's flood. */
  unknownToken: PathFigures;
}

export interface PathFigures extends LoadFigures {
  /** The app process's CPU time (user and system) over the measured run, per response. */
  appCpuMsPerResponse: number;
  /** The emulators' requests over the measured run, per response, by "<service> <operation>". */
  awsRequestsPerResponse: Record<string, number>;
}

type IncidentServer = Awaited<ReturnType<typeof forkIncidentServer>>;

const CONNECTIONS = 10;
const WARM_UP_SECONDS = 2;
const SECONDS = 10;

/**
 * The incident page under bounded local load (autocannon, 10 connections, 10 s after 2 s of
 * warm-up), and the 404 of unknown tokens the same way. Three processes: the emulators (dynalite,
 * fauxqs), the app (served as the local mode serves it), and this one, the load generator. On a
 * 2-vCPU machine they still share the cores, but none shares another's event loop: the app's
 * latency holds no time spent on the emulators' work or the generator's, and the generator times
 * responses as they come, not when the server's work lets it. Still, the emulators take CPU that
 * DynamoDB and S3 would not take from the app, so the throughput is a lower bound for one process;
 * Lambda's concurrency (one request per container, more containers under load) is not modelled.
 */
export async function measureIncidentPage(): Promise<IncidentPageFigures> {
  const emulators = await startEmulators({ separateProcess: true });
  try {
    const token = await storeSharedIncident(emulators);
    const server = await forkIncidentServer({
      ...emulators.env(),
      FLEET_TIME_ZONE: "Europe/Berlin",
      INCIDENT_FORM_SECRET: randomBytes(32).toString("base64url"),
    });
    try {
      const pagePath = `/i/${token}`;
      const bytes = await checkPage(server.baseUrl, pagePath);
      const load = (path: () => string) =>
        measurePath(emulators, server, { origin: server.baseUrl, path, connections: CONNECTIONS });
      return {
        connections: CONNECTIONS,
        warmUpSeconds: WARM_UP_SECONDS,
        seconds: SECONDS,
        page: { ...(await load(() => pagePath)), bytes },
        unknownToken: await load(() => `/i/${newShareToken().token}`),
      };
    } finally {
      await server.close();
    }
  } finally {
    await emulators.close();
  }
}

/**
 * The page as the load will get it: found, with the stored clips and their digests (not the page
 * of pending or unavailable evidence, which reads less). Its size in bytes. The errors name no URL:
 * it holds the token.
 */
async function checkPage(origin: string, path: string): Promise<number> {
  const response = await fetch(`${origin}${path}`);
  const page = await response.text();
  if (response.status !== 200) throw new Error(`the incident page answered ${response.status}`);
  if (!page.includes('class="digest"')) throw new Error("the incident page shows no stored clip");
  return Buffer.byteLength(page);
}

/**
 * A warm-up whose figures are dropped (the app compiles its code and opens its connections to the
 * emulators), then the measured run, with the app's CPU time and the emulators' requests it took.
 */
async function measurePath(
  emulators: Emulators,
  server: IncidentServer,
  options: Omit<LoadOptions, "seconds">,
): Promise<PathFigures> {
  await boundedLoad({ ...options, seconds: WARM_UP_SECONDS });
  const [requestsBefore, cpuMsBefore] = await Promise.all([emulators.requestCounts(), server.cpuMs()]);
  const figures = await boundedLoad({ ...options, seconds: SECONDS });
  const [requestsAfter, cpuMsAfter] = await Promise.all([emulators.requestCounts(), server.cpuMs()]);
  const perResponse = (total: number) => Math.round((total / figures.requests) * 100) / 100;
  const awsRequestsPerResponse = Object.fromEntries(
    Object.entries(requestsAfter)
      .map(([operation, count]) => [operation, count - (requestsBefore[operation] ?? 0)] as const)
      .filter(([, count]) => count > 0)
      .map(([operation, count]) => [operation, perResponse(count)]),
  );
  return { ...figures, appCpuMsPerResponse: perResponse(cpuMsAfter - cpuMsBefore), awsRequestsPerResponse };
}
