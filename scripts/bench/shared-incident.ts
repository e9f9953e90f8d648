import { AlertStore } from "@fleet-alerts/core/alerts";
import { ShareStore } from "@fleet-alerts/core/share";
import { createEvidenceHandler } from "@fleet-alerts/functions/evidence";
import type { Context } from "aws-lambda";
import type { Emulators } from "../../packages/local/src/emulators.js";
import { sqsEvent } from "../../packages/local/src/sqs-event.js";
import { benchDevice, jobOf } from "./bench-device.js";

// The page reads the manifest, never a clip: a short clip at a low bitrate stores a real bag quickly.
const BITRATE = 128_000;
const HALF_SECONDS = 10;
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * One alert with its evidence stored by the real evidence function (clips, their SHA-256, the
 * claim pack) from a simulator that lives only as long as that, and a share link to it: the link's
 * token, a secret the caller must never print.
 */
export async function storeSharedIncident(emulators: Emulators): Promise<string> {
  const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
  const clockStart = new Date(Math.floor(Date.now() / 60_000) * 60_000);
  const eventtime = new Date(clockStart.getTime() - 60 * 60_000);
  const { simulator, deviceid, event } = await benchDevice(clockStart, eventtime, BITRATE);
  const job = jobOf(event, HALF_SECONDS);
  const alert = { account: job.account, serialno: event.serialno, ruleId: job.ruleId };
  try {
    await new AlertStore(table).record(
      {
        ...alert,
        deviceid,
        appdevid: 16,
        eventtime: event.eventtime,
        severity: "critical",
        status: "published",
      },
      Date.now(),
    );
    const evidence = createEvidenceHandler(
      {
        ...emulators.env(),
        DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
          { id: job.account, baseUrl: simulator.url, username: "demo" },
        ]),
        DEVICE_CLOUD_PASSWORD: "demo",
        FLEET_UTC_OFFSET: "+0000",
      },
      { logger: quiet },
    );
    const { batchItemFailures } = await evidence(
      sqsEvent([{ MessageId: "m1", ReceiptHandle: "r1", Body: JSON.stringify(job) }]),
      {} as Context,
    );
    if (batchItemFailures.length > 0) throw new Error("the incident page's evidence job failed");
  } finally {
    await simulator.close();
  }
  const nowMs = Date.now();
  const share = await new ShareStore(table).create(
    {
      ...alert,
      alertId: job.alertId,
      scope: "view+ack",
      createdBy: "bench",
      expiresAtMs: nowMs + 3_600_000,
    },
    nowMs,
  );
  return share.token;
}
