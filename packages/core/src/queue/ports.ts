import type { AwsJson } from "../aws-text.js";

export interface QueueMessage {
  /** JSON every AWS service accepts, whatever the device cloud sent (aws-text.ts). */
  body: AwsJson;
  /**
   * 0..900: SQS's own limit on a message's delay. On the business clock: a sender whose clock runs
   * fast (the local mode's) shortens it by as much.
   */
  delaySeconds?: number;
  /** The delay is real time (a claim's lease): never shortened by a fast business clock. */
  delayOnWallClock?: boolean;
}

/** A message the queue refused for good: its content or size, which no retry changes. */
export interface RefusedMessage {
  /** Its position in the messages given to `send`. */
  index: number;
  reason: string;
}

/** A job queue (evidence, webhook and escalation jobs, Offline checks). */
export interface JobQueue {
  /**
   * Resolves once every message is accepted or refused for good, with the refused ones (so that
   * one message the queue will never take does not hold back the others); throws on a failure that
   * may pass (a throttle, an outage), when the caller must not act as if the messages were sent.
   */
  send(messages: readonly QueueMessage[]): Promise<RefusedMessage[]>;
}

/** Raised where every message must go: a message was refused for good. */
export class QueueRefusedError extends Error {
  constructor(readonly refused: readonly RefusedMessage[]) {
    super(`the queue refused ${refused.length} message(s) for good: ${refused[0]?.reason ?? "no reason"}`);
    this.name = "QueueRefusedError";
  }
}

/**
 * Sends messages that must all go (a job re-queued by its own consumer, which the queue took once
 * already): a refusal is an error.
 */
export async function sendEvery(queue: JobQueue, messages: readonly QueueMessage[]): Promise<void> {
  const refused = await queue.send(messages);
  if (refused.length > 0) throw new QueueRefusedError(refused);
}
