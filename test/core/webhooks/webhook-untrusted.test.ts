import { randomBytes } from "node:crypto";
import { test } from "@fast-check/vitest";
import {
  payloadFor,
  signWebhook,
  webhookMessageId,
  webhookPayloadSchema,
  webhookSecretSchema,
} from "@fleet-alerts/core/webhooks";
import { Webhook } from "standardwebhooks";
import { describe, expect } from "vitest";
import { type DeviceNames, deviceNames } from "../../support/untrusted-strings.js";
import { bodyFor } from "../alerts/fixtures.js";

// Short token: the run's output is watched for share-link tokens (test/support/token-free-output.ts).
const LINK = "https://alerts.example.com/i/tok";
const target = { kind: "webhook", includeDriverName: true } as const;
const secret = `whsec_${randomBytes(32).toString("base64")}`;
const key = webhookSecretSchema.parse(secret);
// The receiver's side, with the specification's own library.
const receiver = new Webhook(secret);

const names = deviceNames();

describe("the generic webhook, whatever the device cloud calls its vehicle, driver and device", () => {
  test.prop([names], { numRuns: 1000 })(
    "is JSON in the documented envelope that carries the device's texts exactly as sent",
    (sent) => {
      const body = bodyFor(sent);
      const payload = webhookPayloadSchema.parse(JSON.parse(payloadFor(target, body, LINK)));
      expect(payload.data).toMatchObject(sent);
      expect(payload.data).toMatchObject({
        vehicleid: body.vehicleid,
        drivername: body.drivername,
        deviceid: body.deviceid,
      });
    },
  );

  test.prop([names], { numRuns: 1000 })(
    "verifies with the Standard Webhooks library, which gives back the payload as sent",
    (sent) => {
      const body = bodyFor(sent);
      const payload = payloadFor(target, body, LINK);
      const headers = signWebhook(
        { id: webhookMessageId(body.alertId, "depot"), body: payload, atMs: Date.now() },
        key,
      );
      const received = receiver.verify(payload, { ...headers }) as { data: DeviceNames };
      expect(received).toEqual(JSON.parse(payload));
      expect(received.data).toMatchObject(sent);
    },
  );
});
