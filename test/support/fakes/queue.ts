import type { JobQueue, QueueMessage } from "@fleet-alerts/core/queue";

/** A job queue in memory: keeps every message it accepted, in order. */
export class FakeJobQueue implements JobQueue {
  readonly sent: QueueMessage[] = [];

  async send(messages: readonly QueueMessage[]): Promise<void> {
    this.sent.push(...messages.map((message) => ({ ...message })));
  }

  /** The bodies sent, parsed. */
  jobs<T = Record<string, unknown>>(): T[] {
    return this.sent.map((message) => JSON.parse(message.body) as T);
  }
}
