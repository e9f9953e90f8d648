import { PublishCommand, type SNSClient } from "@aws-sdk/client-sns";
import { awsText } from "../aws-text.js";
import type { OpsChannel, OpsNotice } from "./ports.js";

/**
 * The stage's ops topic: `opsEmails` subscribe to it, and its alarms notify it. Each notice carries
 * its id as the String attribute `notice_id` (an email subscriber's copy shows none of it; a queue
 * subscriber can drop a repeat by it).
 */
export class SnsOpsChannel implements OpsChannel {
  constructor(
    private readonly sns: SNSClient,
    private readonly topicArn: string,
  ) {}

  async tell({ id, subject, text }: OpsNotice): Promise<void> {
    await this.sns.send(
      new PublishCommand({
        TopicArn: this.topicArn,
        Subject: subject,
        Message: text,
        MessageAttributes: { notice_id: { DataType: "String", StringValue: awsText(id) } },
      }),
    );
  }
}
