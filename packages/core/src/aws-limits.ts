/**
 * The AWS service limits the code relies on, in one place. Each is a hard limit of the service
 * (not a setting of ours): code that sizes a batch, a delay or a text by one imports it from here.
 */

/** SQS: the longest a message can be delayed (DelaySeconds). */
export const SQS_MAX_DELAY_SECONDS = 900;
/** SQS: the longest a received message can stay invisible (ChangeMessageVisibility). */
export const SQS_MAX_VISIBILITY_SECONDS = 43_200;
/** SQS: the longest a queue keeps a message (MessageRetentionPeriod, 14 days). */
export const SQS_MAX_RETENTION_SECONDS = 1_209_600;
/** SQS: entries per SendMessageBatch / DeleteMessageBatch. */
export const SQS_MAX_BATCH_ENTRIES = 10;
/** SQS: the largest message, body and attributes in UTF-8 bytes; also the most a SendMessageBatch carries. */
export const SQS_MAX_MESSAGE_BYTES = 1_048_576;
/** Lambda: the bounds of an SQS event source's maximum concurrency (its ScalingConfig). */
export const SQS_EVENT_SOURCE_MIN_CONCURRENCY = 2;
export const SQS_EVENT_SOURCE_MAX_CONCURRENCY = 1_000;
/** SNS: entries per PublishBatch. */
export const SNS_MAX_BATCH_ENTRIES = 10;
/** SNS: the largest message, body and attributes in UTF-8 bytes; also the most a PublishBatch carries. */
export const SNS_MAX_MESSAGE_BYTES = 262_144;
/** SNS: an email subject must be "less than 100 characters long". */
export const SNS_MAX_SUBJECT_LENGTH = 99;
/** DynamoDB: the largest item, attribute names and values in UTF-8 bytes. */
export const DYNAMODB_MAX_ITEM_BYTES = 409_600;
/** DynamoDB: keys per BatchGetItem. */
export const DYNAMODB_MAX_BATCH_GET_KEYS = 100;
/** DynamoDB: put or delete requests per BatchWriteItem. */
export const DYNAMODB_MAX_BATCH_WRITE_ITEMS = 25;
/** Lambda: the longest a function may run (its timeout, 15 minutes). */
export const LAMBDA_MAX_TIMEOUT_SECONDS = 900;
/** S3: the smallest part of a multipart upload (all but the last part). */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
/** S3: the most parts a multipart upload may have. */
export const S3_MAX_PARTS = 10_000;
