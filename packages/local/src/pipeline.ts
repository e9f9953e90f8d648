/**
 * The whole pipeline on this machine: the device-cloud simulator (or a real device cloud),
 * dynalite and fauxqs, and the real poll, confirm, evidence and escalate handlers, with SQS delivering to
 * them as Lambda's event source mappings would. What the live view and `--json` show comes from
 * what the handlers observed; stored evidence is also copied to `evidenceDir`.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Observer } from "@fleet-alerts/core";
import { DEFAULT_EVIDENCE_CONCURRENCY } from "@fleet-alerts/core/evidence";
import type { PollerDependencies } from "@fleet-alerts/core/poller";
import { type GroupsFile, loadGroupsFile } from "@fleet-alerts/core/routing";
import { createConfirmHandler } from "@fleet-alerts/functions/confirm";
import { createEscalateHandler } from "@fleet-alerts/functions/escalate";
import { createEvidenceHandler } from "@fleet-alerts/functions/evidence";
import { serveIncidentApp } from "@fleet-alerts/functions/incident-server";
import { createNoticesHandler } from "@fleet-alerts/functions/notices";
import { createRecorderAuditHandler } from "@fleet-alerts/functions/recorder-audit";
import { createWebhookHandler } from "@fleet-alerts/functions/webhook";
import type { DeviceIdentity, EventCoordinates, Simulator } from "@fleet-alerts/simulator";
import { DEFAULT_ACCOUNT_COUNT, passwordEnvOf, REAL_ACCOUNT_ID, simulatedAccountIds } from "./accounts.js";
import {
  CONTEXT,
  consumers,
  deliver,
  every,
  everySimulated,
  lambdaContext,
  parkedSweepSchedule,
  runLoops,
} from "./delivery.js";
import { type Emulators, startEmulators } from "./emulators.js";
import { publishEndpoints } from "./endpoints-file.js";
import { copyBag, throttled } from "./evidence-files.js";
import { DEFAULT_GROUPS_FILE, forAccounts, LOCAL_WEBHOOK_TARGET } from "./groups.js";
import { LOCAL_POLL_TIMEOUT_SECONDS, type PollInvocation, pollLoops } from "./poll-loops.js";
import { problemLogger } from "./problem-logger.js";
import { subscribeRecipients } from "./recipients-inbox.js";
import { type LocalLine, type LocalTotals, reporting } from "./report.js";
import { startSimulatedFleets } from "./simulated-fleets.js";
import { targetEnv } from "./webhook.js";

export interface LocalOptions {
  /** Devices per simulated fleet. */
  devices: number;
  /** The first fleet's seed; each next fleet's is one more (another fleet, other events). */
  seed: number;
  /** The simulated fleets, one account and simulator each (not with `deviceCloud`); default "north", "south". */
  accounts?: readonly string[];
  /** Simulated seconds per real second. */
  speed: number;
  /**
   * Seconds between an account's polls: its chain's interval (POLL_EVERY_SECONDS; 60 or more: the
   * watchdog's poll alone), unless `deployedSchedule` is given.
   */
  pollEverySeconds: number;
  /**
   * Runs the poller as a deployed stage does instead (infra/polling.ts), with its Lambda time-out.
   * The benchmark's latency modes use it.
   */
  deployedSchedule?: DeployedSchedule;
  /** Told of every poll-handler invocation once it ends, with its wall time (the benchmark prices them). */
  onPollInvocation?: (invocation: PollInvocation) => void;
  /** The poll's test seams (a checkpoint that stalls it, a shorter lease margin): the chaos test's. */
  pollSeams?: Pick<PollerDependencies, "checkpoint" | "leaseMarginMs">;
  evidenceDir: string;
  rulesFile?: string;
  fleetTimeZone: string;
  /** How the simulator writes events' coordinates ("null" exercises the GPS-track fallback). */
  eventCoordinates?: EventCoordinates;
  /** Evidence jobs run at once, at most, as a stage's `evidenceConcurrency` (default 4). */
  evidenceConcurrency?: number;
  /** What the first simulated fleet calls its first devices (a hostile service's names, say). */
  identities?: DeviceIdentity[];
  /**
   * A real device cloud instead of the simulators (read-only: the pipeline only reads from it), as
   * the one account REAL_ACCOUNT_ID.
   */
  deviceCloud?: { baseUrl: string; username: string; password: string };
  /**
   * Who hears of which alerts (groups.ts: --groups, perhaps with --webhook); by default
   * config/groups.local.json for the accounts that run.
   */
  groups?: GroupsFile;
  /** `--webhook`: where the local webhook target posts, and its `whsec_` secret. */
  webhook?: { url: string; secret: string; secretGenerated: boolean };
  /** The incident pages' port on 127.0.0.1 (default: any free one). */
  incidentPort?: number;
  /** Where the CLI's `--local` finds this run (endpoints-file.ts); none: not written. */
  endpointsFile?: string;
}

export type { PollInvocation } from "./poll-loops.js";

export interface DeployedSchedule {
  pollEverySeconds: number;
  timeoutSeconds: number;
}

export interface LocalPipeline {
  /** The simulated fleets by account id (none with a real device cloud). */
  simulators: ReadonlyMap<string, Simulator>;
  emulators: Emulators;
  /**
   * Stops every loop, waits for evidence being copied, then stops the simulator and the
   * emulators; reports the `local-summary` line and resolves with its totals.
   */
  stop(): Promise<LocalTotals>;
}

/** Starts the pipeline; every line it reports goes to `show`, with the totals so far. */
export async function startLocalPipeline(
  options: LocalOptions,
  show: (line: LocalLine, totals: LocalTotals) => void,
): Promise<LocalPipeline> {
  const { report, totals } = reporting(show);
  const simulated = options.accounts ?? simulatedAccountIds(DEFAULT_ACCOUNT_COUNT);
  const groups =
    options.groups ??
    forAccounts(
      await loadGroupsFile(DEFAULT_GROUPS_FILE),
      options.deviceCloud ? [REAL_ACCOUNT_ID] : simulated,
    );
  const emulators = await startEmulators({ subscribeInbox: false });
  // One clock start for all fleets: the handlers live by the first fleet's clock.
  const clock = { start: new Date(), speed: options.speed };
  const { simulators, accounts } = options.deviceCloud
    ? {
        simulators: new Map<string, Simulator>(),
        accounts: [{ id: REAL_ACCOUNT_ID, ...options.deviceCloud }],
      }
    : await startSimulatedFleets(simulated, { ...options, clock });
  const firstSimulator = [...simulators.values()][0];
  // The handlers read the groups file (GROUPS_FILE); a run's own copy, as --webhook may add to it.
  const groupsFolder = await mkdtemp(join(tmpdir(), "fleet-alerts-groups-"));
  const groupsFile = join(groupsFolder, "groups.json");
  await writeFile(groupsFile, JSON.stringify(groups, null, 2));
  const env = {
    ...emulators.env(),
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify(
      accounts.map((account) => ({
        id: account.id,
        baseUrl: account.baseUrl,
        username: account.username,
        passwordEnv: passwordEnvOf(account.id),
        ...(options.rulesFile && { rulesFile: options.rulesFile }),
      })),
    ),
    ...Object.fromEntries(accounts.map((account) => [passwordEnvOf(account.id), account.password])),
    GROUPS_FILE: groupsFile,
    ...(options.webhook && targetEnv(LOCAL_WEBHOOK_TARGET, options.webhook)),
    // The local mode's receivers may be plain http on this machine (never set in a deployed stage).
    WEBHOOK_ALLOW_LOOPBACK_HTTP: "1",
    FLEET_TIME_ZONE: options.fleetTimeZone,
    // A simulated day: at 300x a parked job's "at risk" notice comes after 2.4 real minutes, its give-up after 4.8.
    EVIDENCE_MAX_WAIT_DAYS: "1",
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
    ...(firstSimulator
      ? { now: () => firstSimulator.control.now().getTime(), timeScale: options.speed }
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
  const confirm = createConfirmHandler(handlerEnv, overrides);
  const evidence = createEvidenceHandler(handlerEnv, overrides);
  const escalate = createEscalateHandler(handlerEnv, overrides);
  // Real time, not the simulated clock: a receiver checks webhook-timestamp against its own clock
  // (Standard Webhooks allows five minutes), and the simulated one runs ahead by minutes a second.
  const webhook = createWebhookHandler(handlerEnv, { ...overrides, now: Date.now });
  const notices = createNoticesHandler(handlerEnv, overrides);
  // Hourly on the simulated clock, as a stage's default: the first run audits the day before the start.
  const recorderAudit = createRecorderAuditHandler(handlerEnv, overrides);
  const { sqs } = emulators.clients;
  const inboxes = await subscribeRecipients(emulators, sqs, groups);
  const loops = runLoops(
    [
      ...pollLoops({
        env: handlerEnv,
        overrides: { ...overrides, ...(options.pollSeams && { pollSeams: options.pollSeams }) },
        accounts: accounts.map((account) => account.id),
        pollEverySeconds: options.deployedSchedule?.pollEverySeconds ?? options.pollEverySeconds,
        timeoutSeconds: options.deployedSchedule?.timeoutSeconds ?? LOCAL_POLL_TIMEOUT_SECONDS,
        sqs,
        timerQueueUrl: emulators.queues.pollTimer,
        ...(options.onPollInvocation && { onInvocation: options.onPollInvocation }),
      }),
      () => deliver(sqs, emulators.queues.confirm, confirm),
      // As deployed: at most evidenceConcurrency jobs download from the device cloud at once.
      ...consumers(
        options.evidenceConcurrency ?? DEFAULT_EVIDENCE_CONCURRENCY,
        sqs,
        emulators.queues.evidence,
        evidence,
      ),
      () => deliver(sqs, emulators.queues.escalation, escalate),
      () => deliver(sqs, emulators.queues.webhook, webhook),
      // Every 5 minutes deployed; here every 5 simulated minutes.
      everySimulated(5, overrides.timeScale, () => notices({}, CONTEXT)),
      everySimulated(60, overrides.timeScale, () => recorderAudit({}, lambdaContext(240))),
      parkedSweepSchedule(sqs, emulators.queues.evidence, overrides.timeScale),
      every(500, async () => {
        for (const line of await inboxes.read()) report(line);
      }),
    ],
    (error) => problem(error.message),
  );

  const removeEndpoints = await publishEndpoints(options, emulators, {
    incidentBaseUrl: incident.baseUrl,
    accounts: accounts.map((account) => account.id),
    simulatedAccounts: simulators.size > 0 ? accounts : [],
    clock: overrides,
  });
  report({
    type: "started",
    accounts: accounts.map((account) => ({ id: account.id, deviceCloud: account.baseUrl })),
    simulated: simulators.size > 0,
    ...(simulators.size > 0 && { devices: options.devices, speed: options.speed }),
    evidenceDir: options.evidenceDir,
    aws: { dynamodb: emulators.endpoints.dynamodb, fauxqs: emulators.endpoints.sqs },
    incident: incident.baseUrl,
    groups: { file: groupsFile, names: groups.groups.map((group) => group.name) },
    ...(options.webhook && {
      webhook: {
        target: LOCAL_WEBHOOK_TARGET,
        // The one place a secret is shown: generated for this run, the receiver needs it to verify.
        ...(options.webhook.secretGenerated && { generatedSecret: options.webhook.secret }),
      },
    }),
  });

  return {
    simulators,
    emulators,
    stop: async () => {
      await removeEndpoints();
      await loops.stop();
      await incident.close();
      while (copies.size > 0) await Promise.all(copies);
      for (const simulator of simulators.values()) await simulator.close();
      await emulators.close();
      await rm(groupsFolder, { recursive: true, force: true });
      report({ type: "local-summary", ...totals() });
      return totals();
    },
  };
}
