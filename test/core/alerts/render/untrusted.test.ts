import type { PublishBatchCommand, PublishBatchRequestEntry, SNSClient } from "@aws-sdk/client-sns";
import { test } from "@fast-check/vitest";
import { SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import { describe, expect } from "vitest";
import { sqsRefusal } from "../../../support/fakes/queue.js";
import { deviceNames, LINE_BREAK, linesOf } from "../../../support/untrusted-strings.js";
import { GSM_SAFE_ASCII, messageFor, PRINTABLE_ASCII } from "../fixtures.js";

const names = deviceNames();

const PLAIN = messageFor({ vehicleid: "V", drivername: "D", deviceid: "d" });

/** An SNS client that takes every entry and keeps what it was sent. */
function capturingSns() {
  const sent: PublishBatchRequestEntry[] = [];
  const client = {
    send: async (command: PublishBatchCommand) => {
      const entries = command.input.PublishBatchRequestEntries ?? [];
      sent.push(...entries);
      return { Successful: entries.map(({ Id }) => ({ Id, MessageId: `m-${Id}` })), Failed: [] };
    },
  };
  return { client: client as unknown as SNSClient, sent };
}

describe("an alert's messages, whatever the device cloud calls its vehicle, driver and device", () => {
  test.prop([names], { numRuns: 1000 })(
    "have a subject of printable ASCII on one line, under SNS's 100 characters",
    (sent) => {
      const { subject } = messageFor(sent);
      expect(subject).toMatch(PRINTABLE_ASCII);
      expect(subject).not.toMatch(LINE_BREAK);
      expect(subject.length).toBeLessThanOrEqual(99);
    },
  );

  test.prop([names], { numRuns: 1000 })("have an SMS of one GSM-7 segment on one line", (sent) => {
    const { sms } = messageFor(sent);
    expect(sms).toMatch(GSM_SAFE_ASCII);
    expect(sms).not.toMatch(LINE_BREAK);
    expect(sms.length).toBeLessThanOrEqual(160);
  });

  test.prop([names], { numRuns: 1000 })(
    "have an email whose lines are ours: as many as with plain names, and nothing that acts instead of showing",
    (sent) => {
      const { email } = messageFor(sent);
      expect(linesOf(email)).toHaveLength(linesOf(PLAIN.email).length);
      expect(email.replaceAll("\n", "")).not.toMatch(/[\p{Cc}\p{Bidi_Control}\p{Noncharacter_Code_Point}]/u);
      expect(email.isWellFormed()).toBe(true);
    },
  );

  test.prop([names], { numRuns: 1000 })(
    "carry the names and device id exactly as sent in the JSON body",
    (sent) => {
      const body = JSON.parse(messageFor(sent).default);
      expect(body).toMatchObject(sent);
    },
  );

  test.prop([names], { numRuns: 1000 })(
    "go out as SQS and its subscriptions take them: the published message and every attribute",
    async (sent) => {
      const message = messageFor(sent);
      const sns = capturingSns();
      const [outcome] = await new SnsAlertPublisher(sns.client, "arn:topic").publish([
        { alertId: "east:1000123:gsensor", message, to: ["e-0000000000000000"] },
      ]);
      expect(outcome?.ok).toBe(true);
      expect(sns.sent).toHaveLength(1);
      const [entry] = sns.sent as [PublishBatchRequestEntry];
      expect(sqsRefusal(entry.Message ?? "")).toBeUndefined();
      expect(sqsRefusal(entry.Subject ?? "")).toBeUndefined();
      for (const [name, attribute] of Object.entries(entry.MessageAttributes ?? {})) {
        expect(sqsRefusal(name)).toBeUndefined();
        expect(sqsRefusal(attribute.StringValue ?? "")).toBeUndefined();
      }
      // What an SQS or HTTP subscriber parses is the body as rendered.
      expect(JSON.parse(entry.Message ?? "")).toEqual({
        default: message.default,
        email: message.email,
        sms: message.sms,
      });
    },
  );
});
