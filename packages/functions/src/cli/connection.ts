import { clientSettingsSchema, DeviceCloudClient } from "@fleet-alerts/core/devicecloud";
import { type Command, Option } from "commander";
import { CliError, integerAtLeast } from "./parse.js";
import { askHidden } from "./prompt.js";

/** The device-cloud connection options every command that talks to the service shares. */
export interface ConnectionOptions {
  baseUrl: string;
  username: string;
  timeoutMs?: number;
}

const PASSWORD_ENV = "DEVICE_CLOUD_PASSWORD";

/** Adds --base-url, --username and --timeout-ms to a command; there is no password option on purpose. */
export function withConnectionOptions(command: Command): Command {
  return command
    .addOption(
      new Option("--base-url <url>", "the device cloud's base address")
        .env("DEVICE_CLOUD_BASE_URL")
        .makeOptionMandatory(),
    )
    .addOption(
      new Option("--username <name>", "the API account").env("DEVICE_CLOUD_USERNAME").makeOptionMandatory(),
    )
    .addOption(
      new Option(
        "--timeout-ms <ms>",
        "time-out of each request, and longest stall of a video download",
      ).argParser(integerAtLeast(1)),
    )
    .addHelpText(
      "after",
      `\nThe password is read from ${PASSWORD_ENV} or, in a terminal, asked for without echo;\n` +
        "it is never an option, since options stay in the shell's history.",
    );
}

/** A client for the account; asks for the password at the terminal when the environment has none. */
export async function connect(options: ConnectionOptions): Promise<DeviceCloudClient> {
  const settings = {
    baseUrl: options.baseUrl,
    ...(options.timeoutMs !== undefined && timeoutSettings(options.timeoutMs)),
  };
  // Checked before the password is asked for: a mistyped address should not cost typing it.
  const checked = clientSettingsSchema.safeParse(settings);
  if (!checked.success) {
    const [issue] = checked.error.issues;
    throw new CliError(`--base-url: ${issue?.message ?? "invalid"}`);
  }
  const password = process.env[PASSWORD_ENV] || (await askPassword(options));
  return new DeviceCloudClient({
    ...settings,
    credentials: { username: options.username, password },
    // The client's retry warnings name the operation and the error, never a credential.
    logger: { warn: (message, attributes) => console.error(`warning: ${message}: ${attributes.error}`) },
  });
}

function timeoutSettings(timeoutMs: number) {
  return { timeoutMs, playback: { responseTimeoutMs: timeoutMs, idleTimeoutMs: timeoutMs } };
}

async function askPassword(options: ConnectionOptions): Promise<string> {
  if (!process.stdin.isTTY)
    throw new CliError(`no password: set ${PASSWORD_ENV}, or run in a terminal to be asked for it`);
  const password = await askHidden(`Password of ${options.username} at ${options.baseUrl}: `);
  if (password === "") throw new CliError("no password given");
  return password;
}
