import type { JobQueue, QueueMessage, RefusedMessage } from "@fleet-alerts/core/queue";

/**
 * What SQS refuses, written here from its documentation rather than taken from the code under test:
 * "A message can include only XML, JSON, and unformatted text. The following Unicode characters are
 * allowed: #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | #x10000 to #x10FFFF" (any other:
 * InvalidMessageContents), and at most 1 MiB (1,048,576 bytes) a message.
 */
const SQS_REFUSES = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;
const SQS_MAX_BYTES = 1_048_576;

/** Why SQS would refuse this body for good, if it would. */
export function sqsRefusal(body: string): string | undefined {
  const char = SQS_REFUSES.exec(body)?.[0];
  if (char !== undefined)
    return `InvalidMessageContents: Invalid binary character '#x${(char.codePointAt(0) as number).toString(16).toUpperCase()}' was found in the message body`;
  const bytes = Buffer.byteLength(body);
  if (bytes > SQS_MAX_BYTES) return `InvalidParameterValue: message of ${bytes} bytes is too long`;
  return undefined;
}

/**
 * A job queue in memory, as strict as SQS: it refuses, for good, every message SQS would refuse
 * (and those `refuse` names, for what no encoding can prevent), and keeps every message it accepted,
 * in order.
 */
export class FakeJobQueue implements JobQueue {
  readonly sent: QueueMessage[] = [];
  readonly refused: { message: QueueMessage; reason: string }[] = [];

  constructor(private readonly refuse: (message: QueueMessage) => string | undefined = () => undefined) {}

  async send(messages: readonly QueueMessage[]): Promise<RefusedMessage[]> {
    const refused: RefusedMessage[] = [];
    for (const [index, message] of messages.entries()) {
      const reason = sqsRefusal(message.body) ?? this.refuse(message);
      if (reason === undefined) this.sent.push({ ...message });
      else {
        refused.push({ index, reason });
        this.refused.push({ message: { ...message }, reason });
      }
    }
    return refused;
  }

  /** The bodies sent, parsed. */
  jobs<T = Record<string, unknown>>(): T[] {
    return this.sent.map((message) => JSON.parse(message.body) as T);
  }
}
