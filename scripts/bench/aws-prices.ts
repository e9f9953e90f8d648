/**
 * AWS public list prices for us-east-1 (N. Virginia), read on 2026-11-22 through stored copies of AWS
 * pages and third-party pricing guides (each entry names the one it was checked against).
 *
 * Convention: `usd` is the price of ONE unit named by `per`, so a cost is `count * usd`. Prices are
 * without free tier; the free tier is kept apart in FREE_TIER. `dated` is the date the page shows, or
 * "read 2026-11-22" when it shows none. `verified: false` marks a value no stored source confirmed
 * (taken from memory): the cost report should say so.
 */
export const PRICES_READ_ON = "2026-11-22";
export const REGION = "us-east-1";

export interface Price {
  usd: number;
  per: string;
  source: string;
  dated: string;
  verified: boolean;
  note?: string;
}

export interface FreeTier {
  amount: number;
  per: string;
  source: string;
  dated: string;
  verified: boolean;
  note?: string;
}

/** Sizes that turn one API call or item into billed units, in bytes. */
export const BILLING_UNITS = {
  /** SNS and SQS bill each 64 KB chunk of a call's payload as one request (a batch: its total payload). */
  messageChunkBytes: 64 * 1024,
  /** DynamoDB standard write: 1 WRU per 1 KB of item, rounded up (transactional: 2 per KB). */
  dynamoWriteUnitBytes: 1024,
  /** DynamoDB strongly consistent read: 1 RRU per 4 KB, rounded up (eventually consistent: half; transactional: 2). */
  dynamoReadUnitBytes: 4 * 1024,
} as const;

const FACTUALMINDS = "https://www.factualminds.com/blog";

export const AWS_PRICES = {
  lambda: {
    armGbSecond: {
      usd: 0.0000133334,
      per: "GB-second (arm64)",
      source: "https://wring.co/blog/aws-lambda-pricing-guide",
      dated: "2026-03-08",
      verified: true,
      note:
        "First 7.5 billion GB-s a month (cloudchipr.com/blog/aws-lambda-pricing). Since August 2025 the INIT " +
        "phase of a cold start is billed as duration too (euno.news/posts/en/aws-lambda-pricing-2026-guide-73bd0a).",
    },
    request: {
      usd: 0.2 / 1_000_000,
      per: "request",
      source: "https://wring.co/blog/aws-lambda-pricing-guide",
      dated: "2026-03-08",
      verified: true,
      note: "$0.20 per 1M, same for x86 and arm64.",
    },
  },
  dynamodb: {
    writeRequestUnit: {
      usd: 0.625 / 1_000_000,
      per: "WRU (on-demand)",
      source: "https://airbyte.com/data-engineering-resources/dynamodb-pricing",
      dated: "2025-07-21",
      verified: true,
      note:
        "$0.625 per 1M after the 50% on-demand cut effective 2024-11-01 (www.jusdb.com, 2025-08-19); older pages " +
        "show the pre-cut rates. Unit rules: BILLING_UNITS, from docs.aws.amazon.com how-aws-pricing-works/dynamodb.",
    },
    readRequestUnit: {
      usd: 0.125 / 1_000_000,
      per: "RRU (on-demand)",
      source: "https://airbyte.com/data-engineering-resources/dynamodb-pricing",
      dated: "2025-07-21",
      verified: true,
      note: "$0.125 per 1M after the November 2024 cut. An eventually consistent read of up to 4 KB is half an RRU.",
    },
    storageGbMonth: {
      usd: 0.25,
      per: "GB-month",
      source: "https://aws.amazon.com/dynamodb/pricing/",
      dated: "read 2026-11-22",
      verified: true,
      note: "The page: 'prices start from $0.25 per GB-month' after the free 25 GB. Standard table class.",
    },
  },
  sns: {
    publishRequest: {
      usd: 0.5 / 1_000_000,
      per: "request (64 KB chunk of a Publish or PublishBatch payload)",
      source: `${FACTUALMINDS}/amazon-sns-pricing-publishes-fanout-protocols/`,
      dated: "2026-06-13",
      verified: true,
      note:
        "Standard topics, $0.50 per 1M. Each extra 64 KB chunk bills as one more request " +
        "(rehemagi.medium.com, 2022-02-22). PublishBatch of up to 10 messages is one API request; AWS says " +
        "batching cuts publish cost by up to 10x (docs.aws.amazon.com/sns/latest/dg/sns-batch-api-actions.html), " +
        "so it is NOT billed per message. Billing a batch by chunks of its total payload is our inference.",
    },
    emailNotification: {
      usd: 2 / 100_000,
      per: "email or email-json notification delivered",
      source: `${FACTUALMINDS}/amazon-sns-pricing-publishes-fanout-protocols/`,
      dated: "2026-06-13",
      verified: true,
      note: "$2.00 per 100,000.",
    },
    sqsNotification: {
      usd: 0,
      per: "notification delivered to an SQS queue",
      source: "https://aws.amazon.com/sns/pricing/",
      dated: "not read",
      verified: false,
      note: "From memory: SNS does not charge for deliveries to SQS. The queue still bills its own requests.",
    },
    smsUsBase: {
      usd: 0.00581,
      per: "SMS message part to a US number",
      source: "https://aws.amazon.com/end-user-messaging/pricing/",
      dated: "not read",
      verified: false,
      note:
        "From memory (AWS End User Messaging base price, US). A part is up to 160 GSM-7 or 70 UCS-2 characters " +
        "(repost.aws/knowledge-center/sns-pinpoint-high-sms-charges). Reported apart from the pipeline cost.",
    },
    smsUsCarrierFee: {
      usd: 0.0045,
      per: "SMS message part to a US number",
      source: "https://help.textvolt.com/articles/7310656083-carrier-fee-snapshot-by-carrier-2026",
      dated: "2026-05-26",
      verified: true,
      note:
        "US carrier pass-through fee, 10DLC and toll-free: Verizon, T-Mobile, US Cellular $0.0045, AT&T $0.0035 " +
        "(a reseller's table, not AWS's). The highest is used. AWS adds it per part on top of the base price.",
    },
  },
  sqs: {
    request: {
      usd: 0.4 / 1_000_000,
      per: "request (64 KB chunk of a payload), standard queue",
      source: `${FACTUALMINDS}/amazon-sqs-pricing-64kb-rule-fifo-vs-standard/`,
      dated: "2026-06-13",
      verified: true,
      note:
        "$0.40 per 1M up to 100 billion a month; a 256 KB message is four requests. SendMessageBatch of 10 is one " +
        "request (awsnegotiations.com/sqs-sns-cost-optimization.html); empty receives count.",
    },
  },
  s3: {
    standardStorageGbMonth: {
      usd: 0.023,
      per: "GB-month, S3 Standard, first 50 TB",
      source: "https://devnotes.tech/understanding-aws-s3-pricing-a-complete-cost-breakdown-with-examples",
      dated: "read 2026-11-22",
      verified: true,
      note: "'First 50 TB' tier from deepeshsoni.com/archives/256.",
    },
    putCopyPostListRequest: {
      usd: 0.005 / 1_000,
      per: "PUT, COPY, POST or LIST request, S3 Standard",
      source: "https://dev.to/sh20raj/aws-s3-pricing-for-beginners-3fc2",
      dated: "read 2026-11-22",
      verified: true,
      note: "$0.005 per 1,000.",
    },
    getRequest: {
      usd: 0.0004 / 1_000,
      per: "GET (and other) request, S3 Standard",
      source: "https://dev.to/sh20raj/aws-s3-pricing-for-beginners-3fc2",
      dated: "read 2026-11-22",
      verified: true,
      note: "$0.0004 per 1,000.",
    },
    dataTransferInGb: {
      usd: 0,
      per: "GB transferred in",
      source: "https://devnotes.tech/understanding-aws-s3-pricing-a-complete-cost-breakdown-with-examples",
      dated: "read 2026-11-22",
      verified: true,
    },
  },
  cloudwatch: {
    logsIngestionGb: {
      usd: 0.5,
      per: "GB ingested, Standard log class",
      source: "https://c3x.dev/blog/cloudwatch-logs-cost-optimization",
      dated: "June 2026",
      verified: true,
    },
    logsStorageGbMonth: {
      usd: 0.03,
      per: "GB-month stored (compressed)",
      source: "https://c3x.dev/blog/cloudwatch-logs-cost-optimization",
      dated: "June 2026",
      verified: true,
    },
    standardAlarmMonth: {
      usd: 0.1,
      per: "standard-resolution alarm metric-month",
      source: "https://c3x.dev/resources/aws/aws_cloudwatch_metric_alarm",
      dated: "read 2026-11-22",
      verified: true,
      note: "High resolution $0.30, composite $0.50 (same page).",
    },
    dashboardMonth: {
      usd: 3,
      per: "custom dashboard-month",
      source: `${FACTUALMINDS}/amazon-cloudwatch-pricing-metrics-logs-alarms-dashboards/`,
      dated: "2026-06-13",
      verified: true,
    },
    customMetricMonth: {
      usd: 0.3,
      per: "custom metric-month, first 10,000 metrics",
      source: "https://signoz.io/guides/cloudwatch-pricing",
      dated: "2026-02-15",
      verified: true,
      note: "Each distinct name + namespace + dimension values is one metric.",
    },
  },
  ssm: {
    getParametersStandard: {
      usd: 0,
      per: "GetParameters call, standard parameters at standard throughput",
      source: "https://aws.amazon.com/systems-manager/pricing/",
      dated: "not read",
      verified: false,
      note:
        "From memory: standard parameters and standard throughput (about 40 requests/s a region) cost nothing; " +
        "higher throughput is $0.05 per 10,000 calls. SST's secrets are standard SecureString parameters.",
    },
  },
  kms: {
    request: {
      usd: 0.03 / 10_000,
      per: "KMS request (a SecureString decrypted)",
      source: "https://aws.amazon.com/kms/pricing/",
      dated: "not read",
      verified: false,
      note:
        "From memory: $0.03 per 10,000 symmetric requests, 20,000 free a month. Whether decrypts through the " +
        "AWS managed aws/ssm key are billed to the caller is not confirmed: counted, to err high.",
    },
  },
  eventbridge: {
    scheduledRuleInvocation: {
      usd: 0,
      per: "invocation by a scheduled rule on the default bus",
      source: `${FACTUALMINDS}/amazon-eventbridge-pricing-events-pipes-schema-archive/`,
      dated: "2026-06-13",
      verified: true,
      note:
        "AWS-service events on the default bus are free, rule evaluation and target invocation included; only " +
        "custom events cost ($1 per 1M). aws.amazon.com/cloudwatch/pricing/: 'All events except custom events are " +
        "included'. Neither names scheduled rules; treating their events as non-custom is our reading.",
    },
  },
} as const satisfies Record<string, Record<string, Price>>;

/** Monthly free tier, as data: the cost model reports cost without it. */
export const FREE_TIER = {
  lambda: {
    requests: {
      amount: 1_000_000,
      per: "requests/month",
      source: "https://wring.co/blog/aws-lambda-pricing-guide",
      dated: "2026-03-08",
      verified: true,
      note: "Does not expire.",
    },
    gbSeconds: {
      amount: 400_000,
      per: "GB-seconds/month, x86 and arm64 together",
      source: "https://wring.co/blog/aws-lambda-pricing-guide",
      dated: "2026-03-08",
      verified: true,
      note: "Does not expire.",
    },
  },
  dynamodb: {
    storageGb: {
      amount: 25,
      per: "GB-month",
      source: "https://aws.amazon.com/dynamodb/pricing/",
      dated: "read 2026-11-22",
      verified: true,
      note: "The 25 WCU / 25 RCU free tier is provisioned capacity only: on-demand requests get none.",
    },
  },
  sns: {
    requests: {
      amount: 1_000_000,
      per: "requests/month",
      source: "https://rehemagi.medium.com/infographic-aws-sns-from-a-serverless-perspective-c1eabcb96417",
      dated: "2022-02-22",
      verified: true,
    },
    emailNotifications: {
      amount: 1_000,
      per: "email notifications/month",
      source: "https://aws.amazon.com/sns/pricing/",
      dated: "not read",
      verified: false,
      note: "From memory.",
    },
  },
  sqs: {
    requests: {
      amount: 1_000_000,
      per: "requests/month, standard and FIFO together",
      source: "https://cloudburn.io/blog/amazon-sqs-pricing",
      dated: "2026-03-14",
      verified: true,
    },
  },
  s3: {
    standardStorageGb: {
      amount: 5,
      per: "GB-month, S3 Standard",
      source: "https://cloudian.com/blog/5-components-of-aws-s3-storage-pricing/amp/",
      dated: "read 2026-11-22",
      verified: true,
      note: "New accounts, first 12 months only.",
    },
    putCopyPostListRequests: {
      amount: 2_000,
      per: "requests/month",
      source: "https://cloudian.com/blog/5-components-of-aws-s3-storage-pricing/amp/",
      dated: "read 2026-11-22",
      verified: true,
      note: "New accounts, first 12 months only.",
    },
    getRequests: {
      amount: 20_000,
      per: "requests/month",
      source: "https://cloudian.com/blog/5-components-of-aws-s3-storage-pricing/amp/",
      dated: "read 2026-11-22",
      verified: true,
      note: "New accounts, first 12 months only.",
    },
  },
  cloudwatch: {
    logsGb: {
      amount: 5,
      per: "GB/month of ingestion, archive storage and Logs Insights scans together",
      source: "https://aws.amazon.com/cloudwatch/pricing/?nc2=type_a",
      dated: "read 2026-11-22",
      verified: true,
    },
    standardAlarmMetrics: {
      amount: 10,
      per: "alarm metrics/month",
      source: "https://aws.amazon.com/cloudwatch/pricing/?nc2=type_a",
      dated: "read 2026-11-22",
      verified: true,
    },
    dashboards: {
      amount: 3,
      per: "custom dashboards/month, up to 50 metrics each",
      source: "https://aws.amazon.com/cloudwatch/pricing/?nc2=type_a",
      dated: "read 2026-11-22",
      verified: true,
    },
    customMetrics: {
      amount: 10,
      per: "custom or detailed-monitoring metrics/month",
      source: "https://aws.amazon.com/cloudwatch/pricing/?nc2=type_a",
      dated: "read 2026-11-22",
      verified: true,
    },
  },
} as const satisfies Record<string, Record<string, FreeTier>>;
