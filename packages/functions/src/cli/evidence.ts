import { createWriteStream } from "node:fs";
import { access, rename, rm } from "node:fs/promises";
import { pipeline } from "node:stream/promises";
import { MAX_PLAYBACK_MINUTES, utcOffsetSchema } from "@fleet-alerts/core/devicecloud";
import { Command, InvalidArgumentError, Option } from "commander";
import { type ConnectionOptions, connect, withConnectionOptions } from "./connection.js";
import { evidencePackCommand } from "./evidence-pack.js";
import { evidenceRequestCommand } from "./evidence-request.js";
import { evidenceVerifyCommand } from "./evidence-verify.js";
import { CliError, type Instant, integerAtLeast, parseInstant } from "./parse.js";
import { progressMeter } from "./progress.js";

interface FetchOptions extends ConnectionOptions {
  device: string;
  at: Instant;
  before: number;
  after: number;
  channel: number;
  out: string;
  /** Minutes east of UTC. */
  utcOffset: number;
}

const MAX_WINDOW_SECONDS = MAX_PLAYBACK_MINUTES * 60;

/** `fleet-alerts evidence ...`: video from the recorders, and alerts' claim packs. */
export function evidenceCommand(): Command {
  const evidence = new Command("evidence").description(
    "fetch video evidence from the device cloud; pack and verify alerts' claim packs; request one for any moment",
  );
  const fetch = evidence
    .command("fetch")
    .description(
      "download one channel's playback around a time into a file, verified as a complete MP4 " +
        "(whole minutes from TIME - BEFORE: the service serves whole minutes, 30 at most)",
    )
    .requiredOption("--device <id>", "the device")
    .requiredOption(
      "--at <time>",
      "the moment of interest (ISO time; UTC unless it has an offset)",
      parseInstant,
    )
    .option("--before <seconds>", "seconds of video before it", integerAtLeast(0), 30)
    .option("--after <seconds>", "seconds of video after it", integerAtLeast(0), 30)
    .requiredOption("--channel <n>", "the camera channel, from 1", integerAtLeast(1))
    .requiredOption("--out <file>", "where to write the MP4 (it must not exist)")
    .addOption(
      new Option("--utc-offset <+hhmm>", "how the playback timestamp is written: the recorders' offset")
        .env("FLEET_UTC_OFFSET")
        .default(0, "+0000")
        .argParser(parseUtcOffset),
    );
  withConnectionOptions(fetch).action(fetchEvidence);
  evidence.addCommand(evidencePackCommand());
  evidence.addCommand(evidenceVerifyCommand());
  evidence.addCommand(evidenceRequestCommand());
  return evidence;
}

function parseUtcOffset(text: string): number {
  const parsed = utcOffsetSchema.safeParse(text);
  if (!parsed.success) throw new InvalidArgumentError("expected an offset such as +0000, +0530 or -03:30");
  return parsed.data;
}

async function fetchEvidence(options: FetchOptions): Promise<void> {
  const seconds = options.before + options.after;
  if (seconds > MAX_WINDOW_SECONDS)
    throw new CliError(
      `--before plus --after is ${seconds} s: at most ${MAX_WINDOW_SECONDS} s (${MAX_PLAYBACK_MINUTES} minutes, ` +
        "the longest playback the service serves) can be fetched at once",
    );
  if (seconds === 0) throw new CliError("--before and --after must not both be 0 (the clip would be empty)");
  if (await exists(options.out))
    throw new CliError(`${options.out} exists: choose another --out or remove it`);
  // Playback timestamps have whole seconds, and the service serves whole minutes.
  const startMs = Math.floor(options.at.ms / 1000) * 1000 - options.before * 1000;
  const durationMinutes = Math.ceil(seconds / 60);
  const client = await connect(options);
  // Loaded on use (the evidence module brings the S3 client along, which every other command would
  // otherwise pay for at start), and before the download starts, so that its bytes are read as they come.
  const { createMp4Verifier } = await import("@fleet-alerts/core/evidence");

  const part = `${options.out}.part`;
  const interrupt = new AbortController();
  const stop = () => interrupt.abort();
  // `on`: under npm a Ctrl-C arrives twice, and an unheard second one would kill the process.
  process.on("SIGINT", stop);
  try {
    const download = await client.downloadPlayback(
      {
        deviceid: options.device,
        channel: options.channel,
        durationMinutes,
        start: new Date(startMs),
        utcOffset: options.utcOffset,
      },
      { signal: interrupt.signal },
    );
    console.error(
      `Downloading channel ${options.channel} of ${options.device}: ` +
        `${durationMinutes} min from ${download.request.timestamp}`,
    );
    const verifier = createMp4Verifier();
    await pipeline(
      download.body,
      verifier.stream,
      progressMeter(download.contentLength),
      createWriteStream(part),
      { signal: interrupt.signal },
    );
    const facts = await verifier.facts();
    await rename(part, options.out);
    const duration = facts.durationMs === undefined ? "unknown" : `${(facts.durationMs / 1000).toFixed(3)} s`;
    const summary: [string, string][] = [
      ["file", options.out],
      ["bytes", String(facts.bytes)],
      ["sha256", facts.sha256Hex],
      ["duration", duration],
    ];
    for (const [label, value] of summary) console.log(`${label.padEnd(10)}${value}`);
  } catch (error) {
    // Never leave a partial clip where it could be taken for evidence.
    await rm(part, { force: true });
    if (interrupt.signal.aborted) throw new CliError("interrupted: no file written");
    throw error;
  } finally {
    process.off("SIGINT", stop);
  }
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
