import type { SendMessageBatchCommand, SQSClient } from "@aws-sdk/client-sqs";
import { QueueSendError, SqsSender } from "@fleet-alerts/core/queue";
import { describe, expect, it } from "vitest";

// fauxqs accepts every SendMessageBatch entry, so per-entry failures are scripted here (RECIPES.md).
function scriptedSqs(failFirst: { id: string; senderFault: boolean }[]) {
  const calls: { id: string; delay?: number }[][] = [];
  const client = {
    send: async (command: SendMessageBatchCommand) => {
      const entries = (command.input.Entries ?? []).map((entry) => ({
        id: entry.Id as string,
        delay: entry.DelaySeconds,
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

describe("SQS sender", () => {
  it("retries failed entries and clamps delays to SQS's 0..900 seconds", async () => {
    const { client, calls } = scriptedSqs([{ id: "m1", senderFault: false }]);
    await new SqsSender(client, "url", { attempts: 3, delayMs: 1 }).send([
      { body: "a", delaySeconds: -5 },
      { body: "b", delaySeconds: 1_200.5 },
      { body: "c" },
    ]);
    expect(calls).toEqual([
      [
        { id: "m0", delay: 0 },
        { id: "m1", delay: 900 },
        { id: "m2", delay: undefined },
      ],
      [{ id: "m1", delay: 900 }],
    ]);
  });

  it("throws instead of pretending a refused message was sent", async () => {
    const { client } = scriptedSqs([{ id: "m0", senderFault: true }]);
    await expect(new SqsSender(client, "url").send([{ body: "a" }])).rejects.toBeInstanceOf(QueueSendError);
  });
});
