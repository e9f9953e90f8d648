import { GetQueueAttributesCommand, type SQSClient } from "@aws-sdk/client-sqs";
import type { QueueDepth, QueueDepths } from "../ports.js";

const COUNTED = [
  "ApproximateNumberOfMessages",
  "ApproximateNumberOfMessagesNotVisible",
  "ApproximateNumberOfMessagesDelayed",
] as const;

/** A queue's messages not yet deleted (visible, in flight, delayed), by GetQueueAttributes: it reads none. */
export class SqsQueueDepths implements QueueDepths {
  constructor(private readonly sqs: SQSClient) {}

  async depth(url: string): Promise<QueueDepth> {
    const { Attributes = {} } = await this.sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ["QueueArn", ...COUNTED] }),
    );
    return {
      arn: Attributes.QueueArn ?? url,
      messages: COUNTED.reduce((sum, attribute) => sum + Number(Attributes[attribute] ?? 0), 0),
    };
  }
}
