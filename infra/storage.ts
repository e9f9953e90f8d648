import { Duration, RemovalPolicy, type Stack } from "aws-cdk-lib";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as s3 from "aws-cdk-lib/aws-s3";
import { CLAIM_PACK_ZIPS } from "../packages/core/src/evidence/claim-pack-zip.js";
import type { StageConfig } from "./stage-config.js";

export interface Storage {
  table: dynamodb.Table;
  accessLogs: s3.Bucket;
  evidenceBucket: s3.Bucket;
  stagingBucket: s3.Bucket;
}

/** The staging bucket's claim-pack zips (`claimPackZipKey`), for the grants of the functions that use them. */
export const packObjects = (stagingBucket: s3.Bucket) => stagingBucket.arnForObjects(`${CLAIM_PACK_ZIPS}*`);
/** ListBucket limited to listings of the zips: whether one is there, and nothing else of the bucket. */
export const PACKS_LISTING = { StringLike: { "s3:prefix": [`${CLAIM_PACK_ZIPS}*`] } };

/** Production stages keep their data when the stage is removed; others clean up after themselves. */
export const removalPolicy = (config: StageConfig) =>
  config.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

/** The table and the buckets: evidence (Object Locked), staging, and their access logs. */
export function buildStorage(stack: Stack, config: StageConfig): Storage {
  const retain = removalPolicy(config);
  const table = new dynamodb.Table(stack, "Table", {
    partitionKey: { name: "pk", type: dynamodb.AttributeType.STRING },
    sortKey: { name: "sk", type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    timeToLiveAttribute: "expiresAt",
    deletionProtection: config.production,
    encryption: dynamodb.TableEncryption.AWS_MANAGED,
    removalPolicy: retain,
  });

  // Who read or wrote evidence, for the insurers' audit trail; kept as long as the evidence.
  const accessLogs = new s3.Bucket(stack, "AccessLogs", {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    encryption: s3.BucketEncryption.S3_MANAGED,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
    lifecycleRules: [{ expiration: Duration.days(Math.max(config.evidenceRetentionDays, 90)) }],
    removalPolicy: retain,
    autoDeleteObjects: !config.production,
  });
  const evidenceBucket = new s3.Bucket(stack, "EvidenceBucket", {
    serverAccessLogsBucket: accessLogs,
    serverAccessLogsPrefix: "evidence/",
    versioned: true,
    objectLockEnabled: true,
    objectLockDefaultRetention: s3.ObjectLockRetention.compliance(
      Duration.days(config.evidenceRetentionDays),
    ),
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    encryption: s3.BucketEncryption.S3_MANAGED,
    lifecycleRules: [
      {
        transitions: [
          {
            storageClass: s3.StorageClass.GLACIER_INSTANT_RETRIEVAL,
            transitionAfter: Duration.days(config.evidenceInfrequentAfterDays),
          },
        ],
      },
    ],
    // Locked objects cannot be deleted before their retention ends: the bucket always stays.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const stagingBucket = new s3.Bucket(stack, "StagingBucket", {
    serverAccessLogsBucket: accessLogs,
    serverAccessLogsPrefix: "staging/",
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    encryption: s3.BucketEncryption.S3_MANAGED,
    // Clips wait here only while they are verified; a crash leaves at most a day's leftovers.
    // Claim-pack zips (packs/) go after a day too: a link lives up to 30 days, but a download of a
    // zip that has gone builds it again in a minute, and zips kept for unused links would double
    // the evidence's storage.
    lifecycleRules: [{ expiration: Duration.days(1), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    removalPolicy: retain,
    autoDeleteObjects: !config.production,
  });
  return { table, accessLogs, evidenceBucket, stagingBucket };
}
