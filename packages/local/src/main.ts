/**
 * `npm start`: the whole pipeline on this machine, on the embedded simulator (or a real device
 * cloud with --base-url), with AWS emulated. Ctrl-C or --duration stops it with a summary.
 */
import { InvalidRulesError, loadRulesFile } from "@fleet-alerts/core/rules";
import { askHidden } from "@fleet-alerts/functions/prompt";
import { Command, InvalidArgumentError } from "commander";
import { type LocalEvent, type LocalOptions, startLocalPipeline } from "./pipeline.js";

interface CliOptions {
  devices: number;
  seed: number;
  speed: number;
  pollEvery: number;
  duration?: number;
  evidenceDir: string;
  rules?: string;
  timeZone: string;
  baseUrl?: string;
  username?: string;
}

const positive = (value: string) => {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError("must be a positive number");
  return number;
};

const program = new Command()
  .name("npm start --")
  .description(
    "Run the whole fleet-alerts pipeline locally: device-cloud simulator, emulated AWS, the real handlers",
  )
  .option("--devices <count>", "simulated devices", positive, 20)
  .option("--seed <seed>", "simulator seed", positive, 1)
  .option("--speed <factor>", "simulated seconds per real second", positive, 60)
  .option("--poll-every <seconds>", "seconds between polls", positive, 2)
  .option("--duration <seconds>", "stop after this many seconds (default: until Ctrl-C)", positive)
  .option("--evidence-dir <dir>", "where stored clips and manifests are copied", ".local/evidence")
  .option("--rules <file>", "a rules file (default: the built-in rules)")
  .option("--time-zone <zone>", "the fleet's time zone for messages", "UTC")
  .option(
    "--base-url <url>",
    "a real device cloud instead of the simulator (password: DEVICE_CLOUD_PASSWORD or a prompt)",
  )
  .option("--username <name>", "the account on the real device cloud")
  .parse();

const options = program.opts<CliOptions>();
const tty = process.stdout.isTTY === true;
let statusShown = false;

function print(line: string) {
  if (statusShown) process.stdout.write("\r\x1b[K");
  statusShown = false;
  console.log(line);
}

function display(event: LocalEvent) {
  const time = new Date().toISOString().slice(11, 19);
  switch (event.kind) {
    case "alert":
      print(
        `${time} ALERT [${event.severity}] ${event.rule} #${event.serialno} ${event.vehicle} (${event.driver}) at ${event.place}\n         SMS: ${event.sms}`,
      );
      break;
    case "suppressed":
    case "offline-scheduled":
    case "offline-confirmed":
    case "offline-suppressed":
    case "offline-cancelled":
      print(`${time} ${event.kind} ${event.rule} #${event.serialno} device ${event.deviceid}`);
      break;
    case "evidence":
      print(
        `${time} EVIDENCE stored ${event.file} (${(event.bytes / 1_048_576).toFixed(1)} MB, sha256 ${event.sha256})`,
      );
      break;
    case "evidence-unavailable":
      print(`${time} evidence unavailable #${event.serialno} device ${event.deviceid}`);
      break;
    case "evidence-progress": {
      const total = event.totalBytes ? `/${(event.totalBytes / 1_048_576).toFixed(1)}` : "";
      const line = `fetching ${event.key}: ${(event.bytes / 1_048_576).toFixed(1)}${total} MB`;
      if (tty) {
        process.stdout.write(`\r\x1b[K${line}`);
        statusShown = true;
      }
      break;
    }
    case "problem":
      print(`${time} PROBLEM ${event.message}`);
      break;
    case "status": {
      const line = `events ${event.eventsRead} | alerts ${event.alerts} | evidence ${event.evidencePending} pending, ${event.evidenceStored} stored | lag ${event.lagSeconds} s`;
      if (tty) {
        process.stdout.write(`\r\x1b[K${line}`);
        statusShown = true;
      }
      break;
    }
  }
}

/** The password of a real device cloud: from the environment, or asked for without echo. */
async function password(baseUrl: string, username: string): Promise<string> {
  if (process.env.DEVICE_CLOUD_PASSWORD) return process.env.DEVICE_CLOUD_PASSWORD;
  if (!process.stdin.isTTY) throw new Error("set DEVICE_CLOUD_PASSWORD (no terminal to ask on)");
  return askHidden(`Password of ${username} at ${baseUrl}: `);
}

async function main(): Promise<number> {
  if (options.rules) {
    try {
      await loadRulesFile(options.rules);
    } catch (error) {
      if (error instanceof InvalidRulesError) {
        console.error(error.message);
        return 1;
      }
      throw error;
    }
  }
  if (options.baseUrl && !options.username) throw new Error("--base-url needs --username");
  const local: LocalOptions = {
    devices: options.devices,
    seed: options.seed,
    speed: options.speed,
    pollEverySeconds: options.pollEvery,
    evidenceDir: options.evidenceDir,
    fleetTimeZone: options.timeZone,
    ...(options.rules && { rulesFile: options.rules }),
    ...(options.baseUrl && {
      deviceCloud: {
        baseUrl: options.baseUrl,
        username: options.username as string,
        password: await password(options.baseUrl, options.username as string),
      },
    }),
  };
  const pipeline = await startLocalPipeline(local, display);
  print(
    pipeline.simulator
      ? `fleet-alerts, locally: ${options.devices} simulated devices at ${options.speed}x (simulator ${pipeline.simulator.url}), AWS emulated on 127.0.0.1.`
      : `fleet-alerts, locally: the device cloud at ${options.baseUrl} (read-only), AWS emulated on 127.0.0.1.`,
  );
  print(
    `Alerts, suppressions, Offline checks and stored evidence appear below; evidence is copied to ${options.evidenceDir}. Ctrl-C stops.`,
  );

  await new Promise<void>((resolve) => {
    const timer = options.duration ? setTimeout(resolve, options.duration * 1000) : undefined;
    // `on`, not `once`: under `npm start` a Ctrl-C arrives twice (from the terminal and forwarded by
    // npm), and a signal with no listener would kill the process in the middle of stopping.
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.on(signal, () => {
        clearTimeout(timer);
        resolve();
      });
    }
  });
  print("Stopping...");
  const summary = await pipeline.stop();
  print(
    `Summary: ${summary.eventsRead} events read, ${summary.alerts} alerts, ${summary.suppressed} suppressed, ${summary.evidenceStored} evidence sets stored, ${summary.problems.length} problems.`,
  );
  return summary.problems.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`fleet-alerts local mode failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
