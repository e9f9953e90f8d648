import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { SNSClient } from "@aws-sdk/client-sns";
import { SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DEFAULT_LAG_ALARM_SECONDS } from "@fleet-alerts/core/config";
import {
  DynamoPollRecords,
  deviceCloudLogin,
  EMULATOR_OBJECT_LOCK,
  fetchProbe,
  type PollRecords,
  SnsTopicSubscriptions,
  SqsQueueDepths,
} from "@fleet-alerts/core/doctor";
import { callLimits, type DoctorStage } from "./doctor-clients.js";
import { localSecrets } from "./doctor-secrets.js";
import { type LocalEndpoints, readLocalEndpoints } from "./local-endpoints.js";
import { readLocalSecrets } from "./local-secrets.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The running local mode as a stage, from its endpoints file (which says its process runs): its
 * emulators' queues, topics and table, its accounts, and its incident pages. Its accounts' secrets
 * are its simulated fleets' (its secrets file) and, for a real device cloud, this shell's.
 */
export async function localStage(file: string, env: Env, timeoutMs: number): Promise<DoctorStage> {
  const local = await readLocalEndpoints(file);
  const common = {
    ...callLimits(timeoutMs),
    region: local.region,
    // The emulators check no signature; a fixed pair keeps the SDK from looking for real ones.
    credentials: { accessKeyId: "local", secretAccessKey: "local" },
  };
  const dynamodb = new DynamoDBClient({ ...common, endpoint: local.endpoints.dynamodb });
  const sqs = new SQSClient({ ...common, endpoint: local.endpoints.sqs });
  const sns = new SNSClient({ ...common, endpoint: local.endpoints.sns });
  const table = { documents: DynamoDBDocumentClient.from(dynamodb), tableName: local.tableName };
  return {
    target: {
      stage: "local",
      accounts: local.accounts,
      lagThresholdSeconds: DEFAULT_LAG_ALARM_SECONDS,
      deadLetterQueues: local.deadLetterQueues,
      topics: local.topics,
      evidenceBucket: local.evidenceBucket,
      incidentBaseUrl: local.incidentBaseUrl,
    },
    ports: {
      secrets: localSecrets(local.secretsFile ? await readLocalSecrets(local.secretsFile) : {}, env),
      login: deviceCloudLogin,
      polls: onRealClock(new DynamoPollRecords(table), local.clock),
      // No EventBridge here: the local mode's poll loops are its schedules, and they run for as long
      // as its process does, which readLocalEndpoints has just found running.
      schedules: {
        list: async () => local.accounts.map((account) => ({ name: `poll loop ${account}`, enabled: true })),
        howToEnable: () => "start the local mode again (npm start)",
      },
      queues: new SqsQueueDepths(sqs),
      subscriptions: new SnsTopicSubscriptions(sns),
      objectLock: EMULATOR_OBJECT_LOCK,
      http: fetchProbe,
      now: Date.now,
    },
    close: () => {
      for (const client of [dynamodb, sqs, sns]) client.destroy();
    },
  };
}

/**
 * The handlers' clock may run `speed` times faster than real time: their catch-up and cursor times,
 * told in real time, compare with the lag threshold as a deployed stage's do.
 */
function onRealClock(polls: PollRecords, clock: LocalEndpoints["clock"]): PollRecords {
  const real = (simulatedMs: number) => clock.realMs + (simulatedMs - clock.simulatedMs) / clock.speed;
  return {
    async read(account) {
      const { caughtUpAtMs, cursor } = await polls.read(account);
      return {
        ...(caughtUpAtMs !== undefined && { caughtUpAtMs: real(caughtUpAtMs) }),
        ...(cursor && {
          cursor: {
            serialno: cursor.serialno,
            ...(cursor.movedAtMs !== undefined && { movedAtMs: real(cursor.movedAtMs) }),
          },
        }),
      };
    },
  };
}
