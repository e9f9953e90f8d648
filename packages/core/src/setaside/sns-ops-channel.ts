import { PublishCommand, type SNSClient } from "@aws-sdk/client-sns";
import type { OpsChannel, OpsNotice } from "./ports.js";

/** The stage's ops topic: `opsEmails` subscribe to it, and its alarms notify it. */
export class SnsOpsChannel implements OpsChannel {
  constructor(
    private readonly sns: SNSClient,
    private readonly topicArn: string,
  ) {}

  async tell({ subject, text }: OpsNotice): Promise<void> {
    await this.sns.send(new PublishCommand({ TopicArn: this.topicArn, Subject: subject, Message: text }));
  }
}
