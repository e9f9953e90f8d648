/**
 * `npm start`: the whole pipeline on this machine, on the embedded simulator (or a real device
 * cloud with --base-url), with AWS emulated. Ctrl-C or --duration stops it with a summary. The
 * live view by default (a block per alert; --verbose adds who got each message); with --json, one
 * JSON object per line on stdout.
 */

import { loadGroupsFile, RoutingValidationError, validateRouting } from "@fleet-alerts/core/routing";
import { DEFAULT_RULES, InvalidRulesError, loadRulesFile } from "@fleet-alerts/core/rules";
import { DEFAULT_LOCAL_ENDPOINTS_FILE } from "@fleet-alerts/functions/local-endpoints";
import { askHidden } from "@fleet-alerts/functions/prompt";
import { EVENT_COORDINATES, type EventCoordinates } from "@fleet-alerts/simulator";
import { Command, InvalidArgumentError, Option } from "commander";
import {
  DEFAULT_ACCOUNT_COUNT,
  REAL_ACCOUNT_ID,
  SIMULATED_ACCOUNT_IDS,
  simulatedAccountIds,
} from "./accounts.js";
import { DEFAULT_GROUPS_FILE, forAccounts, withWebhookTarget } from "./groups.js";
import { humanView } from "./human-view.js";
import { jsonLine } from "./json-view.js";
import { type LocalOptions, startLocalPipeline } from "./pipeline.js";
import { failures, type LocalLine, type LocalTotals } from "./report.js";
import { localWebhookUrl, webhookSecret } from "./webhook.js";

interface CliOptions {
  devices: number;
  accounts: string[];
  groups?: string;
  webhook?: string;
  seed: number;
  speed: number;
  pollEvery: number;
  duration?: number;
  evidenceDir: string;
  rules?: string;
  timeZone: string;
  baseUrl?: string;
  username?: string;
  json?: boolean;
  verbose?: boolean;
  incidentPort?: number;
  eventCoordinates: EventCoordinates;
  endpointsFile: string;
}

const positive = (value: string) => {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError("must be a positive number");
  return number;
};

/** `--accounts <count>`: that many simulated fleets, named in order (north, south, ...). */
const accountCount = (value: string) => {
  try {
    return simulatedAccountIds(Number(value));
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
};

const webhookUrl = (value: string) => {
  try {
    return localWebhookUrl(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
};

const program = new Command()
  .name("npm start --")
  .description(
    "Run the whole fleet-alerts pipeline locally: device-cloud simulator, emulated AWS, the real handlers",
  )
  .option(
    "--accounts <count>",
    `simulated fleets, each a device-cloud account of its own (${SIMULATED_ACCOUNT_IDS.join(", ")})`,
    accountCount,
    simulatedAccountIds(DEFAULT_ACCOUNT_COUNT),
  )
  .option("--devices <count>", "simulated devices per fleet", positive, 10)
  .option("--seed <seed>", "simulator seed", positive, 1)
  .option("--speed <factor>", "simulated seconds per real second", positive, 60)
  .option("--poll-every <seconds>", "seconds between polls", positive, 2)
  .option("--duration <seconds>", "stop after this many seconds (default: until Ctrl-C)", positive)
  .option("--evidence-dir <dir>", "where stored clips and manifests are copied", ".local/evidence")
  .option("--rules <file>", "a rules file (default: the built-in rules)")
  .option("--groups <file>", "a groups file: who hears of which alerts (default: config/groups.local.json)")
  .option(
    "--webhook <url>",
    "also POST every alert to this URL, signed with WEBHOOK_SECRET (whsec_...; generated and shown when unset)",
    webhookUrl,
  )
  .option("--time-zone <zone>", "the fleet's time zone for messages", "UTC")
  .option(
    "--base-url <url>",
    "a real device cloud instead of the simulator (password: DEVICE_CLOUD_PASSWORD or a prompt)",
  )
  .option("--username <name>", "the account on the real device cloud")
  .option("--incident-port <port>", "the incident pages' port on 127.0.0.1 (default: any free one)", positive)
  .option(
    "--endpoints-file <file>",
    "where the CLI's --local finds this run (emulators, queue, incident pages, clock)",
    DEFAULT_LOCAL_ENDPOINTS_FILE,
  )
  .option("--json", "one JSON object per line on stdout, each with its type (observations, then a summary)")
  .option(
    "--verbose",
    "the live view also shows each alert's SMS and a TO line per message each recipient got (by default an alert's block counts its recipients per channel)",
  )
  .addOption(
    new Option(
      "--event-coordinates <mode>",
      "how the simulator writes events' vehiclex/vehicley (null: alerts are placed from the GPS track)",
    )
      .choices(EVENT_COORDINATES)
      .default("numbers"),
  )
  .parse();

const options = program.opts<CliOptions>();
const tty = process.stdout.isTTY === true;
let statusShown = false;

function print(text: string) {
  if (statusShown) process.stdout.write("\r\x1b[K");
  statusShown = false;
  console.log(text);
}

/** The live view: lines as they happen, and the status line in place on a terminal. */
function showHuman(line: LocalLine, totals: LocalTotals) {
  const output = humanView(line, totals, new Date().toISOString().slice(11, 19), {
    verbose: options.verbose === true,
  });
  if (output.print) print(output.print);
  if (output.status && tty) {
    // Cut to the terminal's width: a wrapped line would not be cleared in place.
    process.stdout.write(`\r\x1b[K${output.status.slice(0, (process.stdout.columns || 80) - 1)}`);
    statusShown = true;
  }
}

let stop: () => void = () => undefined;
const stopped = new Promise<void>((resolve) => {
  stop = resolve;
});
// Whoever reads the output went away (`npm start -- --json | head`): stop, quietly.
let readerGone = false;
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  readerGone = true;
  stop();
});

function showJson(line: LocalLine) {
  const text = jsonLine(line);
  if (text !== undefined && !readerGone) process.stdout.write(`${text}\n`);
}

/** Messages before the pipeline runs or when it cannot: a `problem` line under --json. */
function complain(message: string) {
  if (options.json) showJson({ type: "problem", message });
  else console.error(message);
}

/** The password of a real device cloud: from the environment, or asked for without echo. */
async function password(baseUrl: string, username: string): Promise<string> {
  if (process.env.DEVICE_CLOUD_PASSWORD) return process.env.DEVICE_CLOUD_PASSWORD;
  if (!process.stdin.isTTY) throw new Error("set DEVICE_CLOUD_PASSWORD (no terminal to ask on)");
  return askHidden(`Password of ${username} at ${baseUrl}: `);
}

/**
 * The groups the handlers route by: --groups as given, or the default file for the accounts that
 * run; with --webhook, a group sending every alert to the local webhook target.
 */
async function groups(accounts: readonly string[]) {
  const file = options.groups
    ? await loadGroupsFile(options.groups)
    : forAccounts(await loadGroupsFile(DEFAULT_GROUPS_FILE), accounts);
  return options.webhook ? withWebhookTarget(file) : file;
}

async function main(): Promise<number> {
  let rules = DEFAULT_RULES;
  if (options.rules) {
    try {
      rules = await loadRulesFile(options.rules);
    } catch (error) {
      if (error instanceof InvalidRulesError) {
        complain(error.message);
        return 1;
      }
      throw error;
    }
  }
  if (options.baseUrl && !options.username) throw new Error("--base-url needs --username");
  const accounts = options.baseUrl ? [REAL_ACCOUNT_ID] : options.accounts;
  // Both refuse what is wrong (listing a groups file's every problem) before anything starts: the
  // groups file, as the poller checks it, against every account's rules.
  const routing = await groups(accounts);
  try {
    validateRouting(
      routing,
      accounts.map((id) => ({ id, rules })),
      { source: options.groups ?? DEFAULT_GROUPS_FILE },
    );
  } catch (error) {
    if (error instanceof RoutingValidationError) {
      complain(error.message);
      return 1;
    }
    throw error;
  }
  const secret = options.webhook ? webhookSecret(process.env) : undefined;
  const local: LocalOptions = {
    ...(!options.baseUrl && { accounts }),
    groups: routing,
    ...(options.webhook &&
      secret && {
        webhook: { url: options.webhook, secret: secret.secret, secretGenerated: secret.generated },
      }),
    devices: options.devices,
    seed: options.seed,
    speed: options.speed,
    pollEverySeconds: options.pollEvery,
    evidenceDir: options.evidenceDir,
    endpointsFile: options.endpointsFile,
    fleetTimeZone: options.timeZone,
    eventCoordinates: options.eventCoordinates,
    ...(options.rules && { rulesFile: options.rules }),
    ...(options.incidentPort !== undefined && { incidentPort: options.incidentPort }),
    ...(options.baseUrl && {
      deviceCloud: {
        baseUrl: options.baseUrl,
        username: options.username as string,
        password: await password(options.baseUrl, options.username as string),
      },
    }),
  };
  const pipeline = await startLocalPipeline(local, options.json ? showJson : showHuman);

  const timer = options.duration ? setTimeout(stop, options.duration * 1000) : undefined;
  // `on`, not `once`: under `npm start` a Ctrl-C arrives twice (from the terminal and forwarded by
  // npm), and a signal with no listener would kill the process in the middle of stopping.
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop());
  await stopped;
  clearTimeout(timer);
  if (!options.json) print("Stopping...");
  const totals = await pipeline.stop();
  return failures(totals) > 0 ? 1 : 0;
}

/** Exits once everything written to stdout is out (a pipe may still hold some). */
function exit(code: number) {
  if (readerGone) process.exit(code);
  process.stdout.write("", () => process.exit(code));
}

main().then(exit, (error: unknown) => {
  complain(`fleet-alerts local mode failed: ${(error as Error).message}`);
  exit(1);
});
