/**
 * SNS notifications as an SQS subscriber of the alerts topic gets them: the tests and benchmarks
 * read alerts this way, as a fleet manager's phone would get them.
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { isRecord } from "./emulator-servers.js";

export interface InboxMessage {
  /** The SNS MessageId. */
  messageId: string;
  subject?: string;
  /** The SNS message exactly as published (the envelope's Message field). */
  raw: string;
  /**
   * The per-protocol bodies when the publisher used MessageStructure "json". fauxqs does not expand
   * MessageStructure json (it delivers the whole JSON document as the Message), so it is parsed here.
   * On real AWS an SQS subscriber gets only the "sqs" body, or else "default".
   */
  bodies?: { default?: string; email?: string; sms?: string; [protocol: string]: string | undefined };
  /** SNS MessageAttributes as delivered in the SNS envelope. */
  attributes: Record<string, { type: string; value: string }>;
}

export interface ReadOptions {
  /** Keep waiting (long polling) until at least this many messages have arrived. Default 0. */
  atLeast?: number;
  /** Give up waiting for `atLeast` after this long. Default 2000. */
  waitMs?: number;
}

/** Receives (and deletes) everything now in the queue, waiting up to waitMs for at least `atLeast`. */
export async function readQueue(
  sqs: SQSClient,
  url: string,
  options: ReadOptions = {},
): Promise<InboxMessage[]> {
  const { atLeast = 0, waitMs = 2_000 } = options;
  const deadline = Date.now() + waitMs;
  const messages: InboxMessage[] = [];
  for (;;) {
    const remaining = deadline - Date.now();
    const waiting = messages.length < atLeast && remaining > 0;
    // Long polling counts in whole seconds: round down so as never to wait past the deadline, and
    // short-poll in the last second. Once `atLeast` is met, short polls drain what is left.
    const waitSeconds = waiting ? Math.min(20, Math.floor(remaining / 1_000)) : 0;
    const { Messages = [] } = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: waitSeconds }),
    );
    if (Messages.length > 0) {
      messages.push(...Messages.map((message) => parseNotification(message.Body)));
      await sqs.send(
        new DeleteMessageBatchCommand({
          QueueUrl: url,
          Entries: Messages.map((message, index) => ({
            Id: String(index),
            ReceiptHandle: message.ReceiptHandle,
          })),
        }),
      );
    } else if (!waiting) {
      return messages;
    } else if (waitSeconds === 0) {
      await sleep(Math.min(50, remaining));
    }
  }
}

/**
 * Parses the SNS envelope an SQS subscription without raw delivery receives. fauxqs sends
 * `{ Type: "Notification", MessageId, TopicArn, Subject (null when absent), Message, Timestamp,
 * SignatureVersion, Signature, SigningCertURL, UnsubscribeURL, MessageAttributes: { name: { Type, Value } } }`
 * (MessageAttributes always present, `{}` when none).
 */
export function parseNotification(body: string | undefined): InboxMessage {
  const envelope: unknown = body === undefined ? undefined : JSON.parse(body);
  if (
    !isRecord(envelope) ||
    envelope.Type !== "Notification" ||
    typeof envelope.MessageId !== "string" ||
    typeof envelope.Message !== "string"
  ) {
    throw new Error(`not an SNS notification envelope: ${body}`);
  }
  const attributes: InboxMessage["attributes"] = {};
  if (isRecord(envelope.MessageAttributes)) {
    for (const [name, attribute] of Object.entries(envelope.MessageAttributes)) {
      if (isRecord(attribute) && typeof attribute.Type === "string" && typeof attribute.Value === "string") {
        attributes[name] = { type: attribute.Type, value: attribute.Value };
      }
    }
  }
  const bodies = structuredBodies(envelope.Message);
  return {
    messageId: envelope.MessageId,
    ...(typeof envelope.Subject === "string" && { subject: envelope.Subject }),
    raw: envelope.Message,
    ...(bodies && { bodies }),
    attributes,
  };
}

/**
 * The envelope does not say whether MessageStructure "json" was used, so this recognises what SNS
 * accepts for it: a JSON object with a string "default" (other string members are per-protocol
 * bodies). A plain message that happens to have exactly that shape would be read the same way.
 */
function structuredBodies(message: string): InboxMessage["bodies"] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isRecord(parsed) || typeof parsed.default !== "string") return undefined;
  const bodies: NonNullable<InboxMessage["bodies"]> = {};
  for (const [protocol, value] of Object.entries(parsed)) {
    if (typeof value === "string") bodies[protocol] = value;
  }
  return bodies;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
