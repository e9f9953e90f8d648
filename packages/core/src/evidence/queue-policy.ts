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

/** The Offline-confirmation queue's maxReceiveCount. */
export const CONFIRM_MAX_RECEIVES = 5;

/** The escalation queue's maxReceiveCount. */
export const ESCALATION_MAX_RECEIVES = 5;
