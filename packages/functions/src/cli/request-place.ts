import { join } from "node:path";
import { CursorStore } from "@fleet-alerts/core/cursor";
import { bagFolderName } from "@fleet-alerts/core/evidence";
import type { TableRef } from "@fleet-alerts/core/store";
import { chosenAccount } from "./account.js";
import { type LocalEndpoints, localNowMs, readLocalEndpoints } from "./local-endpoints.js";
import { CliError } from "./parse.js";

type Env = Readonly<Record<string, string | undefined>>;

/** Where a footage request goes: a stage's table and evidence queue, or a running local mode's. */
export interface RequestPlace {
  /** The AWS SDK's region, endpoints and credentials, as awsClientConfig reads them. */
  awsEnv: Env;
  tableName: string;
  evidenceQueueUrl: string;
  /** Where share links start (the incident pages' public address). */
  linkBaseUrl: string;
  /** The account to request for, known to the place; refused with the known ones otherwise. */
  account(named: string | undefined, table: TableRef): Promise<string>;
  /** "Now" for the handlers: the local mode's clock may run faster than real time. */
  nowMs(): number;
  /** Where the pack is once stored: its folder in the local evidence folder, else its bucket prefix. */
  packLocation(alertId: string, manifestKey: string): string;
  /** The local evidence folder, which the local mode copies each stored pack to. */
  localEvidenceDir?: string;
}

export interface PlaceOptions {
  local?: string;
  table?: string;
  queue?: string;
  linkBaseUrl?: string;
  bucket?: string;
}

/** The running local mode's (`--local`), or the stage's from the options and the environment. */
export async function requestPlace(options: PlaceOptions, env: Env): Promise<RequestPlace> {
  return options.local === undefined
    ? stagePlace(options, env)
    : localPlace(await readLocalEndpoints(options.local));
}

function stagePlace(options: PlaceOptions, env: Env): RequestPlace {
  const missing = [
    options.table === undefined && "--table (TABLE_NAME)",
    options.queue === undefined && "--queue (EVIDENCE_QUEUE_URL)",
    options.linkBaseUrl === undefined && "--link-base-url (PUBLIC_BASE_URL)",
  ].filter((name) => name !== false);
  if (missing.length > 0)
    throw new CliError(`say where to ask: ${missing.join(", ")}; or --local for a running npm start`);
  return {
    awsEnv: env,
    tableName: options.table as string,
    evidenceQueueUrl: options.queue as string,
    linkBaseUrl: options.linkBaseUrl as string,
    async account(named, table) {
      const account = chosenAccount(named, env);
      // A stage's accounts are its stage file's, which the CLI does not read: an account the
      // stage polls has a cursor in its table.
      if ((await new CursorStore(table).readItem(account)) === undefined)
        throw new CliError(
          `unknown account ${account}: the stage has never polled it (no cursor in its table)`,
        );
      return account;
    },
    nowMs: Date.now,
    packLocation: (_alertId, manifestKey) =>
      `${options.bucket === undefined ? "" : `s3://${options.bucket}/`}${manifestKey.replace(/manifest\.json$/, "")}`,
  };
}

function localPlace(local: LocalEndpoints): RequestPlace {
  return {
    awsEnv: {
      AWS_REGION: local.region,
      AWS_ENDPOINT_URL_DYNAMODB: local.endpoints.dynamodb,
      AWS_ENDPOINT_URL_SQS: local.endpoints.sqs,
      AWS_ENDPOINT_URL_S3: local.endpoints.s3,
      // The emulators check no signature; a fixed pair keeps the SDK from looking for real ones.
      AWS_ACCESS_KEY_ID: "local",
      AWS_SECRET_ACCESS_KEY: "local",
    },
    tableName: local.tableName,
    evidenceQueueUrl: local.evidenceQueueUrl,
    linkBaseUrl: local.incidentBaseUrl,
    async account(named) {
      const account = named ?? (local.accounts.length === 1 ? local.accounts[0] : undefined);
      if (account === undefined)
        throw new CliError(`--account is required: the local mode runs ${local.accounts.join(", ")}`);
      if (!local.accounts.includes(account))
        throw new CliError(`unknown account ${account}: the local mode runs ${local.accounts.join(", ")}`);
      return account;
    },
    nowMs: () => localNowMs(local.clock),
    packLocation: (alertId) => join(local.evidenceDir, bagFolderName(alertId)),
    localEvidenceDir: local.evidenceDir,
  };
}
