import type { SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { awsJson } from "@fleet-alerts/core/aws-text";
import { QueueSendError, SqsSender } from "@fleet-alerts/core/queue";
import { describe, expect, it } from "vitest";

// Scripted per-entry failures and the batches SQS was sent: what a whole-batch refusal or a
// retry looks like cannot be made to happen on the emulator (RECIPES.md).
function scriptedSqs(failFirst: { id: string; senderFault: boolean }[]) {
  const calls: { id: string; delay?: number; bytes: number }[][] = [];
  const client = {
    send: async (command: SendMessageBatchCommand) => {
      const entries = (command.input.Entries ?? []).map((entry) => ({
        id: entry.Id as string,
        delay: entry.DelaySeconds,
        bytes: Buffer.byteLength(entry.MessageBody ?? ""),
      }));
      calls.push(entries);
      const failed = calls.length === 1 ? failFirst : [];
      return {
        Successful: entries
          .filter((entry) => !failed.some((failure) => failure.id === entry.id))
          .map((entry) => ({ Id: entry.id })),
        Failed: failed.map((failure) => ({
          Id: failure.id,
          Code: "E",
          Message: "m",
          SenderFault: failure.senderFault,
        })),
      };
    },
  };
  return { client: client as unknown as SQSClient, calls };
}

const MIB = 1_048_576;

describe("SQS sender", () => {
  it("retries failed entries and clamps delays to SQS's 0..900 seconds", async () => {
    const { client, calls } = scriptedSqs([{ id: "m1", senderFault: false }]);
    const refused = await new SqsSender(client, "url", { attempts: 3, delayMs: 1 }).send([
      { body: awsJson("a"), delaySeconds: -5 },
      { body: awsJson("b"), delaySeconds: 1_200.5 },
      { body: awsJson("c") },
    ]);
    expect(refused).toEqual([]);
    expect(calls.map((call) => call.map(({ id, delay }) => ({ id, delay })))).toEqual([
      [
        { id: "m0", delay: 0 },
        { id: "m1", delay: 900 },
        { id: "m2", delay: undefined },
      ],
      [{ id: "m1", delay: 900 }],
    ]);
  });

  it("returns a message refused for good (a sender fault) and sends the others, without retrying it", async () => {
    const { client, calls } = scriptedSqs([{ id: "m1", senderFault: true }]);
    const refused = await new SqsSender(client, "url", { attempts: 3, delayMs: 1 }).send([
      { body: awsJson("a") },
      { body: awsJson("b") },
      { body: awsJson("c") },
    ]);
    expect(refused).toEqual([{ index: 1, reason: "E: m" }]);
    expect(calls).toHaveLength(1);
  });

  it("throws instead of pretending a message was sent when SQS keeps failing it for a reason that may pass", async () => {
    const { client } = scriptedSqs([{ id: "m0", senderFault: false }]);
    await expect(
      new SqsSender(client, "url", { attempts: 1, delayMs: 1 }).send([{ body: awsJson("a") }]),
    ).rejects.toBeInstanceOf(QueueSendError);
  });

  it("keeps each batch within SQS's 1 MiB payload, and refuses a message over it without asking", async () => {
    const { client, calls } = scriptedSqs([]);
    const large = awsJson("x".repeat(400_000));
    const refused = await new SqsSender(client, "url").send([
      { body: large },
      { body: large },
      { body: awsJson("y".repeat(MIB)) },
      { body: large },
      { body: awsJson("small") },
    ]);
    expect(refused).toEqual([{ index: 2, reason: expect.stringMatching(/over SQS's 1048576/) }]);
    expect(calls.map((call) => call.map((entry) => entry.id))).toEqual([
      ["m0", "m1"],
      ["m3", "m4"],
    ]);
    for (const call of calls)
      expect(call.reduce((sum, entry) => sum + entry.bytes, 0)).toBeLessThanOrEqual(MIB);
  });
});
