/**
 * How the handlers get their work locally: SQS delivers to them as Lambda's event source mappings
 * would, and loops run the schedule and the deliveries until stopped.
 */
import { setTimeout as sleep } from "node:timers/promises";
import {
  DeleteMessageBatchCommand,
  type Message,
  ReceiveMessageCommand,
  SendMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { PARKED_SWEEP_EVERY_MINUTES, PARKED_SWEEP_MESSAGE } from "@fleet-alerts/core/evidence";
import type { Context, SQSBatchResponse, SQSEvent } from "aws-lambda";
import { sqsEvent } from "./sqs-event.js";

// A Lambda context is not needed by the handlers beyond this.
export const CONTEXT = { getRemainingTimeInMillis: () => 30_000 } as Context;

/** One receive as an event source mapping does it: up to `batchSize` messages, waiting a second for any. */
export async function receive(sqs: SQSClient, queueUrl: string, batchSize = 10): Promise<Message[]> {
  const { Messages } = await sqs.send(
    new ReceiveMessageCommand({
      QueueUrl: queueUrl,
      MaxNumberOfMessages: batchSize,
      WaitTimeSeconds: 1,
      MessageSystemAttributeNames: ["ApproximateReceiveCount"],
    }),
  );
  return Messages ?? [];
}

/** What an SQS event source mapping does: deliver a batch, then delete the messages that succeeded. */
export async function deliver(
  sqs: SQSClient,
  queueUrl: string,
  handler: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>,
  batchSize = 10,
): Promise<void> {
  const messages = await receive(sqs, queueUrl, batchSize);
  if (messages.length === 0) return;
  const failed = new Set(
    (await handler(sqsEvent(messages), CONTEXT)).batchItemFailures.map((failure) => failure.itemIdentifier),
  );
  const done = messages.filter((message) => !failed.has(message.MessageId as string));
  if (done.length === 0) return;
  await sqs.send(
    new DeleteMessageBatchCommand({
      QueueUrl: queueUrl,
      Entries: done.map((message, index) => ({ Id: `d${index}`, ReceiptHandle: message.ReceiptHandle })),
    }),
  );
}

/**
 * Runs `step` again and again until stopped, one step `everyMs` at most. Stopping cuts the wait
 * short: a loop of five minutes (the notices' at real-time speed) must not hold up the stop.
 */
export function every(everyMs: number, step: () => Promise<unknown>): LoopStep {
  return async (stopping) => {
    const started = Date.now();
    await step();
    const waitMs = Math.max(0, everyMs - (Date.now() - started));
    await sleep(waitMs, undefined, { signal: stopping }).catch(() => undefined);
  };
}

/** A schedule of every `minutes` of the simulated clock, at least a real second apart. */
export function everySimulated(minutes: number, timeScale: number, run: () => Promise<unknown>): LoopStep {
  return every(Math.max(1000, (minutes * 60_000) / timeScale), run);
}

/**
 * The parked-evidence sweep's message on the evidence queue every PARKED_SWEEP_EVERY_MINUTES of the
 * simulated clock (at least a real second apart), as its schedule sends it deployed (infra/evidence.ts).
 */
export function parkedSweepSchedule(sqs: SQSClient, evidenceQueueUrl: string, timeScale: number): LoopStep {
  return everySimulated(PARKED_SWEEP_EVERY_MINUTES, timeScale, () =>
    sqs.send(
      new SendMessageCommand({
        QueueUrl: evidenceQueueUrl,
        MessageBody: JSON.stringify(PARKED_SWEEP_MESSAGE),
      }),
    ),
  );
}

/**
 * An event source mapping with a maximum concurrency of `count` and batches of one: `count` loops,
 * each delivering one message at a time, so that no more than `count` run at once and the others
 * wait in the queue, not received.
 */
export function consumers(
  count: number,
  sqs: SQSClient,
  queueUrl: string,
  handler: (event: SQSEvent, context: Context) => Promise<SQSBatchResponse>,
): LoopStep[] {
  return Array.from({ length: count }, () => () => deliver(sqs, queueUrl, handler, 1));
}

/** One turn of a loop; `stopping` aborts when the loops are stopped. */
export type LoopStep = (stopping: AbortSignal) => Promise<unknown>;

/**
 * Runs each step in a loop of its own until `stop()`, which resolves once every loop has finished
 * its current step. A step that throws is reported and retried half a second later.
 */
export function runLoops(steps: LoopStep[], onError: (error: Error) => void) {
  const stopping = new AbortController();
  const loops = steps.map(async (step) => {
    while (!stopping.signal.aborted) {
      try {
        await step(stopping.signal);
      } catch (error) {
        if (stopping.signal.aborted) return;
        onError(error as Error);
        await sleep(500, undefined, { signal: stopping.signal }).catch(() => undefined);
      }
    }
  });
  return {
    stop: async () => {
      stopping.abort();
      await Promise.all(loops);
    },
  };
}

/** A Lambda invocation's context: its time left counts down from the function's timeout. */
export function lambdaContext(timeoutSeconds: number): Context {
  const deadlineMs = Date.now() + timeoutSeconds * 1000;
  return { getRemainingTimeInMillis: () => deadlineMs - Date.now() } as Context;
}
