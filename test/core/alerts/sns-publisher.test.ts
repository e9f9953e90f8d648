import type { PublishBatchCommand, SNSClient } from "@aws-sdk/client-sns";
import { type AlertMessage, SnsAlertPublisher } from "@fleet-alerts/core/alerts";
import { describe, expect, it } from "vitest";

// fauxqs accepts every PublishBatch entry, so per-entry failures cannot be shown against the
// emulator: this stub client answers with scripted Successful/Failed lists instead (RECIPES.md).
function scriptedSns(
  answers: ((ids: string[]) => { ok: string[]; failed: { id: string; senderFault: boolean }[] })[],
) {
  const calls: string[][] = [];
  const client = {
    send: async (command: PublishBatchCommand) => {
      const ids = (command.input.PublishBatchRequestEntries ?? []).map((entry) => entry.Id as string);
      calls.push(ids);
      const answer = (answers[calls.length - 1] ?? answers.at(-1))?.(ids) ?? { ok: ids, failed: [] };
      return {
        Successful: answer.ok.map((id) => ({ Id: id, MessageId: `m-${calls.length}-${id}` })),
        Failed: answer.failed.map(({ id, senderFault }) => ({
          Id: id,
          Code: senderFault ? "InvalidParameter" : "InternalError",
          SenderFault: senderFault,
        })),
      };
    },
  };
  return { client: client as unknown as SNSClient, calls };
}

const message: AlertMessage = {
  subject: "s",
  email: "e",
  sms: "m",
  default: "{}",
  attributes: { severity: { DataType: "String", StringValue: "info" } },
};
const alerts = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ alertId: `alert-${index}`, message }));

describe("SNS publisher", () => {
  it("sends one message per recipient with its id as `to`, and tells which got it when one failed", async () => {
    const { client, calls } = scriptedSns([
      () => ({ ok: ["a0", "a2"], failed: [{ id: "a1", senderFault: false }] }),
    ]);
    const to = ["e-1", "e-2", "s-3"];
    const [outcome] = await new SnsAlertPublisher(client, "arn:topic", { attempts: 2, delayMs: 1 }).publish([
      { alertId: "alert-0", message, to },
    ]);
    expect(calls).toEqual([["a0", "a1", "a2"], ["a1"]]);
    expect(outcome).toEqual({
      alertId: "alert-0",
      ok: false,
      permanent: false,
      reason: "InternalError: no message",
      sentTo: ["e-1", "s-3"],
    });
  });

  it("publishes in batches of ten with the JSON structure and attributes", async () => {
    const { client, calls } = scriptedSns([(ids) => ({ ok: ids, failed: [] })]);
    const outcomes = await new SnsAlertPublisher(client, "arn:topic", { attempts: 3, delayMs: 1 }).publish(
      alerts(23),
    );
    expect(calls.map((ids) => ids.length)).toEqual([10, 10, 3]);
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(23);
  });

  it("retries only the entries that failed, and reports sender faults as permanent at once", async () => {
    const { client, calls } = scriptedSns([
      () => ({
        ok: ["a0"],
        failed: [
          { id: "a1", senderFault: false },
          { id: "a2", senderFault: true },
        ],
      }),
      () => ({ ok: ["a1"], failed: [] }),
    ]);
    const outcomes = await new SnsAlertPublisher(client, "arn:topic", { attempts: 3, delayMs: 1 }).publish(
      alerts(3),
    );
    expect(calls).toEqual([["a0", "a1", "a2"], ["a1"]]);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        { alertId: "alert-0", ok: true, messageId: "m-1-a0" },
        { alertId: "alert-1", ok: true, messageId: "m-2-a1" },
        { alertId: "alert-2", ok: false, permanent: true, reason: "InvalidParameter: no message" },
      ]),
    );
  });

  it("gives up on a failing entry after the bounded attempts, as a transient failure", async () => {
    const { client, calls } = scriptedSns([() => ({ ok: [], failed: [{ id: "a0", senderFault: false }] })]);
    const [outcome] = await new SnsAlertPublisher(client, "arn:topic", { attempts: 3, delayMs: 1 }).publish(
      alerts(1),
    );
    expect(calls).toHaveLength(3);
    expect(outcome).toEqual({
      alertId: "alert-0",
      ok: false,
      permanent: false,
      reason: "InternalError: no message",
    });
  });
});
