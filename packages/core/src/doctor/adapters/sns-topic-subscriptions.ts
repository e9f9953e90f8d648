import { GetTopicAttributesCommand, type SNSClient } from "@aws-sdk/client-sns";
import type { SubscriptionCounts, TopicSubscriptions } from "../ports.js";

/**
 * A topic's confirmed and pending subscriptions, as GetTopicAttributes counts them: one call
 * whatever their number, and no endpoint (an address) read.
 */
export class SnsTopicSubscriptions implements TopicSubscriptions {
  constructor(private readonly sns: SNSClient) {}

  async count(topicArn: string): Promise<SubscriptionCounts> {
    const { Attributes = {} } = await this.sns.send(new GetTopicAttributesCommand({ TopicArn: topicArn }));
    return {
      confirmed: Number(Attributes.SubscriptionsConfirmed ?? 0),
      pending: Number(Attributes.SubscriptionsPending ?? 0),
    };
  }
}
