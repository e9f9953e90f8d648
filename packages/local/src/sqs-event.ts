import type { Message } from "@aws-sdk/client-sqs";
import type { SQSEvent } from "aws-lambda";

/**
 * What Lambda hands an SQS-triggered function for received messages: the local mode delivers
 * with it, and the tests too. `messageId` is what a partial batch response names.
 */
export function sqsEvent(
  messages: readonly Pick<Message, "MessageId" | "ReceiptHandle" | "Body" | "Attributes">[],
): SQSEvent {
  return {
    Records: messages.map((message) => ({
      messageId: message.MessageId as string,
      receiptHandle: message.ReceiptHandle as string,
      body: message.Body as string,
      attributes: { ApproximateReceiveCount: message.Attributes?.ApproximateReceiveCount ?? "1" },
      messageAttributes: {},
      md5OfBody: "",
      eventSource: "aws:sqs",
      eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:queue",
      awsRegion: "us-east-1",
    })),
  } as unknown as SQSEvent;
}
