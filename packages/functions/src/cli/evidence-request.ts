import { userInfo } from "node:os";
import type {
  FootageRequestDependencies,
  FootageRequestInput,
  footageRequestInputSchema,
} from "@fleet-alerts/core/evidence";
import type { TableRef } from "@fleet-alerts/core/store";
import { terminalText } from "@fleet-alerts/core/text";
import { Command, Option } from "commander";
import { accountOption } from "./account.js";
import { DEFAULT_LOCAL_ENDPOINTS_FILE } from "./local-endpoints.js";
import { type LinkLifetimeOptions, linkLifetimeMs, linkLifetimeOptions, newLinkLines } from "./new-link.js";
import { CliError, type Instant, integerAtLeast, parseChannels, parseInstant } from "./parse.js";
import { type PlaceOptions, type RequestPlace, requestPlace } from "./request-place.js";
import { onTable } from "./table.js";

interface RequestOptions extends Omit<PlaceOptions, "local">, LinkLifetimeOptions {
  /** `--local` alone: the default endpoints file. */
  local?: string | true;
  account?: string;
  device: string;
  at: Instant;
  before: number;
  after: number;
  channels: number[];
  reason: string;
  by: string;
  wait?: number | true;
}

/** How long `--wait` waits when no time is given: a clip of minutes downloads in well under that. */
const DEFAULT_WAIT_SECONDS = 600;

/** Which option each field of the request came from, to name it in an error. */
const OPTION_OF: Record<string, string> = {
  deviceid: "--device",
  atMs: "--at",
  secondsBefore: "--before",
  secondsAfter: "--after",
  channels: "--channels",
  reason: "--reason",
  requestedBy: "--by",
};

/** `fleet-alerts evidence request`: the claim pack of a moment no alert was raised for. */
export function evidenceRequestCommand(): Command {
  const command = new Command("request")
    .description(
      "ask for the claim pack of a moment no alert was raised for (a claim that came later): the " +
        "same bag, report and custody as an alert's, with your reason; prints a link to its incident page",
    )
    .addOption(accountOption())
    .requiredOption("--device <id>", "the device")
    .requiredOption("--at <time>", "the moment (ISO time; UTC unless it has an offset)", parseInstant)
    .option("--before <seconds>", "seconds of video before it", integerAtLeast(0), 30)
    .option("--after <seconds>", "seconds of video after it", integerAtLeast(0), 30)
    .option("--channels <list>", "camera channels, such as 1,2", parseChannels, [1])
    .requiredOption(
      "--reason <text>",
      "why the footage is wanted (a claim reference, say): kept in its custody record",
    )
    .addOption(
      new Option("--by <name>", "who asks (recorded with the request)").default(osUser(), "your user name"),
    )
    .option("--local [file]", `ask a running npm start (its endpoints file, ${DEFAULT_LOCAL_ENDPOINTS_FILE})`)
    .addOption(new Option("--table <name>", "the stage's table").env("TABLE_NAME"))
    .addOption(new Option("--queue <url>", "the stage's evidence queue").env("EVIDENCE_QUEUE_URL"))
    .addOption(
      new Option("--link-base-url <url>", "the incident pages' public address").env("PUBLIC_BASE_URL"),
    )
    .addOption(
      new Option("--bucket <name>", "the stage's evidence bucket, to say where the pack is").env(
        "EVIDENCE_BUCKET",
      ),
    )
    .option(
      "--wait [seconds]",
      `wait for the pack and say where it is (default ${DEFAULT_WAIT_SECONDS} s)`,
      integerAtLeast(1),
    );
  for (const option of linkLifetimeOptions()) command.addOption(option);
  return command.action(request);
}

async function request(options: RequestOptions): Promise<void> {
  const local = options.local === true ? DEFAULT_LOCAL_ENDPOINTS_FILE : options.local;
  const place = await requestPlace({ ...options, local }, process.env);
  const lifetimeMs = linkLifetimeMs(options);
  // Loaded on use: core's evidence module brings the S3 client along.
  const { footageRequestInputSchema: schema, requestFootage } = await import("@fleet-alerts/core/evidence");
  await onTable(
    place.tableName,
    async (table) => {
      const input = checkedRequest(schema, options, await place.account(options.account, table), place);
      const { deps, close } = await requestDependencies(place, table);
      try {
        const outcome = await requestFootage(input, lifetimeMs, deps);
        console.log(
          outcome.first
            ? `footage requested: ${outcome.alertId}`
            : // Another operator's name: shown so that nothing in it acts on the terminal.
              `already requested by ${terminalText(outcome.request.requestedBy)} at ${outcome.request.requestedAt}: ` +
                `the same claim pack, ${outcome.alertId}${outcome.settled ? " (ready)" : ""}`,
        );
        for (const line of newLinkLines(place.linkBaseUrl, outcome.link, lifetimeMs, "view"))
          console.log(line);
        if (options.wait === undefined) return;
        const { waitForPack } = await import("./evidence-request-wait.js");
        const seconds = options.wait === true ? DEFAULT_WAIT_SECONDS : options.wait;
        await waitForPack(place, table, outcome.alertId, seconds * 1000);
      } finally {
        close();
      }
    },
    place.awsEnv,
  );
}

/** The request checked as core's schema checks it, each problem named by its option; a future moment refused. */
function checkedRequest(
  schema: typeof footageRequestInputSchema,
  options: RequestOptions,
  account: string,
  place: RequestPlace,
): FootageRequestInput {
  const parsed = schema.safeParse({
    account,
    deviceid: options.device,
    atMs: options.at.ms,
    secondsBefore: options.before,
    secondsAfter: options.after,
    channels: options.channels,
    reason: options.reason,
    requestedBy: options.by,
  });
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const option = OPTION_OF[String(issue?.path[0])];
    throw new CliError(`${option === undefined ? "" : `${option}: `}${issue?.message ?? "invalid request"}`);
  }
  const nowMs = place.nowMs();
  if (parsed.data.atMs > nowMs)
    throw new CliError(
      `--at ${new Date(parsed.data.atMs).toISOString()} is in the future (now: ${new Date(nowMs).toISOString()})`,
    );
  return parsed.data;
}

/** The stores and the evidence queue of the place, and what closes the queue's client. */
async function requestDependencies(place: RequestPlace, table: TableRef) {
  const [{ SQSClient }, { AlertStore }, { SqsSender }, { AccessAudit, ShareStore }, { awsClientConfig }] =
    await Promise.all([
      import("@aws-sdk/client-sqs"),
      import("@fleet-alerts/core/alerts"),
      import("@fleet-alerts/core/queue"),
      import("@fleet-alerts/core/share"),
      import("../runtime.js"),
    ]);
  const sqs = new SQSClient(awsClientConfig(place.awsEnv, "SQS"));
  const deps: FootageRequestDependencies = {
    alerts: new AlertStore(table),
    evidenceQueue: new SqsSender(sqs, place.evidenceQueueUrl),
    shares: new ShareStore(table),
    audit: new AccessAudit(table),
    now: place.nowMs,
  };
  return { deps, close: () => sqs.destroy() };
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    // A container's user may have no name (no passwd entry).
    return "cli";
  }
}
