/**
 * The whole pipeline on this machine: the device-cloud simulator (or a real device cloud),
 * dynalite and fauxqs, and the real poll, confirm, evidence and escalate handlers, with SQS delivering to
 * them as Lambda's event source mappings would. What the live view and `--json` show comes from
 * what the handlers observed; stored evidence is also copied to `evidenceDir`.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Observer, StructuredLogger } from "@fleet-alerts/core";
import { createConfirmHandler } from "@fleet-alerts/functions/confirm";
import { createEscalateHandler } from "@fleet-alerts/functions/escalate";
import { createEvidenceHandler } from "@fleet-alerts/functions/evidence";
import { serveIncidentApp } from "@fleet-alerts/functions/incident-server";
import { createPollHandler } from "@fleet-alerts/functions/poll";
import { type EventCoordinates, type Simulator, start as startSimulator } from "@fleet-alerts/simulator";
import { CONTEXT, deliver, every, runLoops } from "./delivery.js";
import { type Emulators, startEmulators } from "./emulators.js";
import { copyBag, throttled } from "./evidence-files.js";
import { type LocalLine, type LocalTotals, reporting } from "./report.js";

export interface LocalOptions {
  devices: number;
  seed: number;
  /** Simulated seconds per real second. */
  speed: number;
  pollEverySeconds: number;
  evidenceDir: string;
  rulesFile?: string;
  /** The groups file; config/groups.local.json (one group hearing of everything) when absent. */
  groupsFile?: string;
  fleetTimeZone: string;
  /** How the simulator writes events' coordinates ("null" exercises the GPS-track fallback). */
  eventCoordinates?: EventCoordinates;
  /** A real device cloud instead of the simulator (read-only: the pipeline only reads from it). */
  deviceCloud?: { baseUrl: string; username: string; password: string };
  /** The incident pages' port on 127.0.0.1 (default: any free one). */
  incidentPort?: number;
}

export interface LocalPipeline {
  simulator?: Simulator;
  emulators: Emulators;
  /**
   * Stops every loop, waits for evidence being copied, then stops the simulator and the
   * emulators; reports the `local-summary` line and resolves with its totals.
   */
  stop(): Promise<LocalTotals>;
}

const LOCAL_GROUPS_FILE = fileURLToPath(new URL("../../../config/groups.local.json", import.meta.url));

/** Starts the pipeline; every line it reports goes to `show`, with the totals so far. */
export async function startLocalPipeline(
  options: LocalOptions,
  show: (line: LocalLine, totals: LocalTotals) => void,
): Promise<LocalPipeline> {
  const { report, totals } = reporting(show);
  const emulators = await startEmulators({ subscribeInbox: false });
  const simulator = options.deviceCloud
    ? undefined
    : await startSimulator({
        seed: options.seed,
        devices: options.devices,
        historyHours: 1,
        clock: { start: new Date(), speed: options.speed },
        ...(options.eventCoordinates && { eventCoordinates: options.eventCoordinates }),
        // Small clips: a minute of video is about 1 MB.
        bitrateBitsPerSecond: 128_000,
      });
  const cloud = options.deviceCloud ?? {
    baseUrl: simulator?.url as string,
    username: "demo",
    password: "demo",
  };
  const env = {
    ...emulators.env(),
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
      {
        id: "local",
        baseUrl: cloud.baseUrl,
        username: cloud.username,
        ...(options.rulesFile && { rulesFile: options.rulesFile }),
      },
    ]),
    DEVICE_CLOUD_PASSWORD: cloud.password,
    GROUPS_FILE: options.groupsFile ?? LOCAL_GROUPS_FILE,
    FLEET_TIME_ZONE: options.fleetTimeZone,
    EVIDENCE_GIVE_UP_HOURS: "1",
    CLAIM_SOURCE_ORGANIZATION: "fleet-alerts local mode",
    // One run's alert links: they open this run's incident pages, and no later run's. Used only
    // once PUBLIC_BASE_URL is set (the local incident app's address).
    SHARE_LINK_SECRET: randomBytes(32).toString("base64url"),
  };

  const problem = (message: string) => report({ type: "problem", message });
  const copies = new Set<Promise<void>>();
  const observer: Observer = {
    observe(observation) {
      report(observation);
      if (observation.type !== "evidence-stored" && observation.type !== "evidence-unavailable") return;
      const { alertId, serialno } = observation;
      const stored = observation.type === "evidence-stored" ? observation : undefined;
      const copy = copyBag(emulators.clients.s3, observation, options.evidenceDir)
        .then(
          ({ folder, report: reportFile }) =>
            report({
              type: "evidence-copied",
              alertId,
              serialno,
              partial: stored?.partial ?? false,
              clips: (stored?.clips ?? []).map((clip) => ({
                file: join(folder, clip.key.slice(observation.bag.prefix.length)),
                bytes: clip.bytes,
                sha256: clip.sha256,
              })),
              report: reportFile,
            }),
          (error: Error) => problem(`copying the evidence of #${serialno}: ${error.message}`),
        )
        .finally(() => copies.delete(copy));
      copies.add(copy);
    },
  };
  const overrides = {
    logger: problemLogger(problem),
    observer,
    // The simulator's clock runs `speed` times faster: the handlers live by it, and SQS delays shrink.
    ...(simulator
      ? { now: () => simulator.control.now().getTime(), timeScale: options.speed }
      : { now: Date.now, timeScale: 1 }),
    evidenceProgress: throttled((download) => report({ type: "evidence-progress", ...download })),
  };
  // The incident pages, served as the HTTP API would; the handlers' links point at them.
  const incident = await serveIncidentApp(
    (baseUrl) => ({
      ...env,
      PUBLIC_BASE_URL: baseUrl,
      // A fresh secret per run: forms from an earlier run's pages are refused, as after a rotation.
      INCIDENT_FORM_SECRET: randomBytes(32).toString("base64url"),
    }),
    overrides,
    options.incidentPort,
  );
  const handlerEnv = { ...env, PUBLIC_BASE_URL: incident.baseUrl };
  const poll = createPollHandler(handlerEnv, overrides);
  const confirm = createConfirmHandler(handlerEnv, overrides);
  const evidence = createEvidenceHandler(handlerEnv, overrides);
  const escalate = createEscalateHandler(handlerEnv, overrides);
  const { sqs } = emulators.clients;
  const loops = runLoops(
    [
      // The schedule: the poll handler reports each run's poll-summary itself.
      every(options.pollEverySeconds * 1000, () => poll({}, CONTEXT)),
      () => deliver(sqs, emulators.queues.confirm, confirm),
      () => deliver(sqs, emulators.queues.evidence, evidence),
      () => deliver(sqs, emulators.queues.escalation, escalate),
    ],
    (error) => problem(error.message),
  );

  report({
    type: "started",
    deviceCloud: cloud.baseUrl,
    simulated: simulator !== undefined,
    ...(simulator && { devices: options.devices, speed: options.speed }),
    evidenceDir: options.evidenceDir,
    aws: { dynamodb: emulators.endpoints.dynamodb, fauxqs: emulators.endpoints.sqs },
    incident: incident.baseUrl,
  });

  return {
    ...(simulator && { simulator }),
    emulators,
    stop: async () => {
      await loops.stop();
      await incident.close();
      while (copies.size > 0) await Promise.all(copies);
      await simulator?.close();
      await emulators.close();
      report({ type: "local-summary", ...totals() });
      return totals();
    },
  };
}

/** Errors the handlers log are the problems the views list; the rest they observe. */
function problemLogger(problem: (message: string) => void): StructuredLogger {
  return {
    info: () => undefined,
    warn: () => undefined,
    error: (message, attributes) => {
      const detail = attributes.error ?? attributes.reason;
      problem(detail === undefined ? message : `${message}: ${String(detail)}`);
    },
  };
}
