import { setTimeout as sleep } from "node:timers/promises";
import { GetQueueAttributesCommand, SendMessageBatchCommand } from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consumers, runLoops } from "../../packages/local/src/delivery.js";
import { type Emulators, startEmulators } from "../support/emulators.js";

let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
});
afterAll(() => emulators.close());

describe("the local mode's evidence consumers (the stage's evidenceConcurrency)", () => {
  it("run no more jobs at once than the cap, and drain a catch-up's queue with every job received once", async () => {
    const { sqs } = emulators.clients;
    const url = emulators.queues.evidence;
    const jobs = Array.from({ length: 24 }, (_, index) => `job-${index}`);
    for (let start = 0; start < jobs.length; start += 10)
      await sqs.send(
        new SendMessageBatchCommand({
          QueueUrl: url,
          Entries: jobs
            .slice(start, start + 10)
            .map((body, index) => ({ Id: `e${index}`, MessageBody: body })),
        }),
      );

    let running = 0;
    let most = 0;
    const done: { body: string; receives: string }[] = [];
    // A job that downloads for a while: long enough for the others to pile up behind the cap.
    const handler = async (event: SQSEvent): Promise<SQSBatchResponse> => {
      running += 1;
      most = Math.max(most, running);
      await sleep(60);
      for (const record of event.Records)
        done.push({ body: record.body, receives: record.attributes.ApproximateReceiveCount });
      running -= 1;
      return { batchItemFailures: [] };
    };
    const errors: Error[] = [];
    const loops = runLoops(consumers(3, sqs, url, handler), (error) => errors.push(error));
    const deadline = Date.now() + 20_000;
    while (done.length < jobs.length && Date.now() < deadline) await sleep(50);
    await loops.stop();

    expect(errors).toEqual([]);
    expect(most).toBe(3);
    expect(done.map((job) => job.body).sort()).toEqual([...jobs].sort());
    // A job that waited behind the cap was never received meanwhile: no receive counted against it.
    expect(new Set(done.map((job) => job.receives))).toEqual(new Set(["1"]));
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["ApproximateNumberOfMessages"] }),
    );
    expect(Attributes?.ApproximateNumberOfMessages).toBe("0");
  });
});
