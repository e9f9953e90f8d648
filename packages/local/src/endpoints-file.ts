import { resolve } from "node:path";
import { writeLocalEndpoints } from "@fleet-alerts/functions/local-endpoints";
import type { Emulators } from "./emulators.js";
import type { LocalOptions } from "./pipeline.js";

/** What the CLI's `--local` needs of this run, beside its emulators and options. */
export interface RunFacts {
  incidentBaseUrl: string;
  accounts: readonly string[];
  /** The handlers' clock, and how much faster than real time it runs. */
  clock: { now: () => number; timeScale: number };
}

/**
 * Says how the CLI reaches this run (`fleet-alerts ... --local`): writes its `endpointsFile` and
 * returns what removes it at the end; with none, writes nothing.
 */
export async function publishEndpoints(
  options: Pick<LocalOptions, "endpointsFile" | "evidenceDir">,
  emulators: Emulators,
  run: RunFacts,
): Promise<() => Promise<void>> {
  if (options.endpointsFile === undefined) return async () => undefined;
  const { dynamodb, sqs, s3 } = emulators.endpoints;
  return writeLocalEndpoints(options.endpointsFile, {
    region: emulators.region,
    endpoints: { dynamodb, sqs, s3 },
    tableName: emulators.tableName,
    evidenceQueueUrl: emulators.queues.evidence,
    evidenceBucket: emulators.bucket,
    incidentBaseUrl: run.incidentBaseUrl,
    evidenceDir: resolve(options.evidenceDir),
    accounts: [...run.accounts],
    clock: { realMs: Date.now(), simulatedMs: run.clock.now(), speed: run.clock.timeScale },
  });
}
