import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import type { SQSBatchResponse, SQSEvent } from "aws-lambda";
import { expect } from "vitest";
import { CONTEXT, receive } from "../../packages/local/src/delivery.js";
import { sqsEvent } from "../../packages/local/src/sqs-event.js";

type QueueHandler = (event: SQSEvent, context: typeof CONTEXT) => Promise<SQSBatchResponse>;

/**
 * Delivers a queue's messages to a handler as Lambda's event source mapping would, each `copies`
 * times in one batch (SQS's at-least-once delivery), until the queue holds nothing, delayed
 * messages included; every delivery must succeed.
 */
export async function drainQueue(
  sqs: SQSClient,
  url: string,
  handler: QueueHandler,
  copies = 1,
): Promise<void> {
  while (await messagesLeft(sqs, url)) {
    const messages = await receive(sqs, url);
    if (messages.length === 0) continue;
    const delivered = messages.flatMap((message) =>
      Array.from(
        { length: copies },
        (_, copy): Message => ({ ...message, MessageId: `${message.MessageId}/${copy}` }),
      ),
    );
    expect((await handler(sqsEvent(delivered), CONTEXT)).batchItemFailures).toEqual([]);
    await sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: url,
        Entries: messages.map((message, index) => ({
          Id: `d${index}`,
          ReceiptHandle: message.ReceiptHandle,
        })),
      }),
    );
  }
}

async function messagesLeft(sqs: SQSClient, url: string): Promise<boolean> {
  const { Attributes = {} } = await sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: url,
      AttributeNames: [
        "ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesDelayed",
        "ApproximateNumberOfMessagesNotVisible",
      ],
    }),
  );
  return Object.values(Attributes).some((count) => Number(count) > 0);
}
