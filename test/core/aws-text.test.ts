import { fc, test } from "@fast-check/vitest";
import { buildAlertMessage } from "@fleet-alerts/core/alerts";
import { awsJson, awsText, isAwsText } from "@fleet-alerts/core/aws-text";
import { describe, expect, it } from "vitest";
import { sqsRefusal } from "../support/fakes/queue.js";
import { untrustedString } from "../support/untrusted-strings.js";
import { context, fleetDevice } from "./alerts/fixtures.js";

const SQS_MAX_BYTES = 1_048_576;

/** JSON-able values made of the device cloud's strings, as a job or a message body holds them. */
const untrustedJson = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    untrustedString(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(untrustedString({ maxLength: 40 }), tie("value"), { maxKeys: 4 }),
  ),
})).value;

describe("awsJson", () => {
  test.prop([untrustedJson], { numRuns: 1000 })(
    "gives back exactly the value JSON.stringify would, whatever its strings hold",
    (value) => {
      expect(JSON.parse(awsJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
    },
  );

  test.prop([untrustedJson], { numRuns: 1000 })(
    "is a body SQS takes (its characters; its size when under 1 MiB)",
    (value) => {
      const json = awsJson(value);
      if (Buffer.byteLength(json) <= SQS_MAX_BYTES) expect(sqsRefusal(json)).toBeUndefined();
      else expect(sqsRefusal(json)).toMatch(/too long/);
      expect(isAwsText(json)).toBe(true);
    },
  );
});

describe("awsText", () => {
  test.prop([untrustedString()], { numRuns: 1000 })(
    "is a text SQS takes, and the text itself when SQS takes that already",
    (text) => {
      const sent = awsText(text);
      expect(sqsRefusal(sent)).toBeUndefined();
      if (sqsRefusal(text) === undefined) expect(sent).toBe(text);
    },
  );

  test.prop([untrustedString()], { numRuns: 1000 })("isAwsText says what SQS would say", (text) => {
    expect(isAwsText(text)).toBe(sqsRefusal(text) === undefined);
  });
});

describe("a driver's name SQS would refuse, in a published message", () => {
  it.each([
    ["U+FFFF", "Ada\uffffLovelace"],
    ["U+FFFE", "\ufffeAda"],
    ["an emoji", "👩‍✈️ Grace 🚚"],
    ["NUL", "Ada\u0000"],
  ])("goes out with %s as sent", (_, drivername) => {
    const message = buildAlertMessage(context({ device: fleetDevice({ drivername }) }));
    const sent = awsJson({ default: message.default, email: message.email, sms: message.sms });
    expect(sqsRefusal(sent)).toBeUndefined();
    const received = JSON.parse(sent);
    expect(received.default).toBe(message.default);
    expect(JSON.parse(received.default).drivername).toBe(drivername);
  });
});
