import { clientSettingsSchema, DeviceCloudClient } from "@fleet-alerts/core/devicecloud";
import { type Command, Option } from "commander";
import { accountConnection, accountOption, chosenAccount, configuredAccounts } from "./account.js";
import { CliError, integerAtLeast } from "./parse.js";
import { askHidden } from "./prompt.js";

/** The device-cloud connection options every command that talks to the service shares. */
export interface ConnectionOptions {
  account?: string;
  baseUrl?: string;
  username?: string;
  timeoutMs?: number;
}

const PASSWORD_ENV = "DEVICE_CLOUD_PASSWORD";

/**
 * Adds --account, --base-url, --username and --timeout-ms to a command; there is no password option
 * on purpose.
 */
export function withConnectionOptions(command: Command): Command {
  return command
    .addOption(accountOption())
    .addOption(new Option("--base-url <url>", "the device cloud's base address").env("DEVICE_CLOUD_BASE_URL"))
    .addOption(new Option("--username <name>", "the API account").env("DEVICE_CLOUD_USERNAME"))
    .addOption(
      new Option(
        "--timeout-ms <ms>",
        "time-out of each request, and longest stall of a video download",
      ).argParser(integerAtLeast(1)),
    )
    .addHelpText(
      "after",
      `\nThe password is read from ${PASSWORD_ENV} or, in a terminal, asked for without echo;\n` +
        "it is never an option, since options stay in the shell's history. With --account <id>, the\n" +
        "account's entry in DEVICE_CLOUD_ACCOUNTS, or DEVICE_CLOUD_<ID>_BASE_URL, _USERNAME and\n" +
        "_PASSWORD (the stage's secret names), come before --base-url, --username and the password.",
    );
}

/**
 * Where to connect: the named account's (or the only configured one's) settings, else the plain
 * --base-url and --username; with several accounts configured and none named, an error.
 */
function target(options: ConnectionOptions) {
  const unnamed = options.account === undefined && configuredAccounts().length === 0;
  const account = unnamed ? undefined : accountConnection(chosenAccount(options.account));
  const baseUrl = account?.baseUrl ?? options.baseUrl;
  const username = account?.username ?? options.username;
  if (baseUrl === undefined) throw new CliError("no device cloud: pass --account or --base-url");
  if (username === undefined) throw new CliError("no API user: pass --account or --username");
  return { baseUrl, username, passwordEnv: account?.passwordEnv ?? PASSWORD_ENV };
}

/** A client for the account; asks for the password at the terminal when the environment has none. */
export async function connect(options: ConnectionOptions): Promise<DeviceCloudClient> {
  const { baseUrl, username, passwordEnv } = target(options);
  const settings = {
    baseUrl,
    ...(options.timeoutMs !== undefined && timeoutSettings(options.timeoutMs)),
  };
  // Checked before the password is asked for: a mistyped address should not cost typing it.
  const checked = clientSettingsSchema.safeParse(settings);
  if (!checked.success) {
    const [issue] = checked.error.issues;
    throw new CliError(`--base-url: ${issue?.message ?? "invalid"}`);
  }
  const password = process.env[passwordEnv] || (await askPassword(baseUrl, username, passwordEnv));
  return new DeviceCloudClient({
    ...settings,
    credentials: { username, password },
    // The client's retry warnings name the operation and the error, never a credential.
    logger: { warn: (message, attributes) => console.error(`warning: ${message}: ${attributes.error}`) },
  });
}

function timeoutSettings(timeoutMs: number) {
  return { timeoutMs, playback: { responseTimeoutMs: timeoutMs, idleTimeoutMs: timeoutMs } };
}

async function askPassword(baseUrl: string, username: string, passwordEnv: string): Promise<string> {
  if (!process.stdin.isTTY)
    throw new CliError(`no password: set ${passwordEnv}, or run in a terminal to be asked for it`);
  const password = await askHidden(`Password of ${username} at ${baseUrl}: `);
  if (password === "") throw new CliError("no password given");
  return password;
}
