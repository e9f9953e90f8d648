import { type Check, fail, pass, settle } from "./check.js";
import type { TopicRef, TopicSubscriptions } from "./ports.js";

/**
 * Every subscription of a topic is confirmed: an email address that never clicked SNS's
 * confirmation link receives nothing. Endpoints are not shown (they are people's addresses).
 */
export function checkSubscriptions(topic: TopicRef, subscriptions: TopicSubscriptions): Promise<Check[]> {
  const name = `subscriptions: ${topic.name}`;
  return settle(
    name,
    async () => {
      const { confirmed, pending } = await subscriptions.count(topic.arn);
      if (pending === 0) return pass(name, `${confirmed} confirmed`);
      return fail(
        name,
        `${pending} of ${confirmed + pending} pending confirmation`,
        `find them with aws sns list-subscriptions-by-topic --topic-arn ${topic.arn} (SubscriptionArn ` +
          "PendingConfirmation); each recipient confirms " +
          "from SNS's message, and one that lost it gets it again when subscribed once more " +
          `(aws sns subscribe --topic-arn ${topic.arn} --protocol <protocol> --notification-endpoint <address>)`,
      );
    },
    "check that this shell may read the stage's topics (AWS credentials and region), then run doctor again",
  );
}
