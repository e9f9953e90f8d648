/**
 * How often SQS hands out a job before it moves it to the dead-letter queue (the queues'
 * maxReceiveCount), in one place for the deployed queues (infra), the emulated ones (local mode and
 * tests) and the functions' settings.
 */

/**
 * The evidence queue's maxReceiveCount. The evidence function reads it as EVIDENCE_MAX_RECEIVES:
 * on the last receive it marks the evidence failed, before SQS moves the job to the DLQ.
 */
export const EVIDENCE_MAX_RECEIVES = 5;

/**
 * How many evidence jobs run at once, by default (the stage's `evidenceConcurrency`): each
 * downloads playback from the vendor's service, whose rate limits nobody knows, and a catch-up after
 * an outage queues hundreds at a time. The event source's maximum concurrency holds the others in
 * the queue without receiving them, so waiting costs a job none of its receives; the local mode
 * runs as many consumers.
 */
export const DEFAULT_EVIDENCE_CONCURRENCY = 4;

/** The Offline-confirmation queue's maxReceiveCount. */
export const CONFIRM_MAX_RECEIVES = 5;

/** The escalation queue's maxReceiveCount. */
export const ESCALATION_MAX_RECEIVES = 5;
