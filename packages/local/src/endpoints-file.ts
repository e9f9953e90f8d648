import { dirname, join, resolve } from "node:path";
import { writeLocalEndpoints } from "@fleet-alerts/functions/local-endpoints";
import { writeLocalSecrets } from "@fleet-alerts/functions/local-secrets";
import type { Emulators } from "./emulators.js";
import type { LocalOptions } from "./pipeline.js";

/** What the CLI's `--local` needs of this run, beside its emulators and options. */
export interface RunFacts {
  incidentBaseUrl: string;
  accounts: readonly string[];
  /** The simulated fleets' made-up credentials, for `doctor --local` (none with a real device cloud). */
  simulatedAccounts: readonly { id: string; baseUrl: string; username: string; password: string }[];
  /** The handlers' clock, and how much faster than real time it runs. */
  clock: { now: () => number; timeScale: number };
}

/**
 * Says how the CLI reaches this run (`fleet-alerts ... --local`): writes its `endpointsFile` (and
 * the simulated fleets' `secrets.json` beside it) and returns what removes them at the end; with
 * none, writes nothing.
 */
export async function publishEndpoints(
  options: Pick<LocalOptions, "endpointsFile" | "evidenceDir">,
  emulators: Emulators,
  run: RunFacts,
): Promise<() => Promise<void>> {
  if (options.endpointsFile === undefined) return async () => undefined;
  const secretsFile = resolve(join(dirname(options.endpointsFile), "secrets.json"));
  const removeSecrets =
    run.simulatedAccounts.length > 0
      ? await writeLocalSecrets(
          secretsFile,
          Object.fromEntries(run.simulatedAccounts.map(({ id, ...connection }) => [id, connection])),
        )
      : undefined;
  const removeEndpoints = await writeLocalEndpoints(options.endpointsFile, {
    ...emulatedResources(emulators),
    incidentBaseUrl: run.incidentBaseUrl,
    evidenceDir: resolve(options.evidenceDir),
    accounts: [...run.accounts],
    ...(removeSecrets && { secretsFile }),
    clock: { realMs: Date.now(), simulatedMs: run.clock.now(), speed: run.clock.timeScale },
  });
  return async () => {
    await removeEndpoints();
    await removeSecrets?.();
  };
}

/** What of the emulators the endpoints file names (the doctor checks each): endpoints, table, queues, topics, bucket. */
export function emulatedResources(emulators: Emulators) {
  const { dynamodb, sns, sqs, s3 } = emulators.endpoints;
  const { queues } = emulators;
  return {
    region: emulators.region,
    endpoints: { dynamodb, sns, sqs, s3 },
    tableName: emulators.tableName,
    evidenceQueueUrl: queues.evidence,
    deadLetterQueues: [
      { name: "evidence-dlq", url: queues.evidenceDlq },
      { name: "webhook-dlq", url: queues.webhookDlq },
    ],
    topics: [
      { name: "alerts", arn: emulators.topicArn },
      { name: "escalation", arn: emulators.escalationTopicArn },
      { name: "ops", arn: emulators.opsTopicArn },
    ],
    evidenceBucket: emulators.bucket,
  };
}
