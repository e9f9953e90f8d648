export interface QueueMessage {
  body: string;
  /** 0..900: SQS's own limit on a message's delay. */
  delaySeconds?: number;
}

/** A job queue (evidence jobs, Offline checks): resolves once every message is accepted, else throws. */
export interface JobQueue {
  send(messages: readonly QueueMessage[]): Promise<void>;
}
