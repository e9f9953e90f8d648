import type { Stack } from "aws-cdk-lib";
import type * as iam from "aws-cdk-lib/aws-iam";
import type * as s3 from "aws-cdk-lib/aws-s3";
import { NagSuppressions } from "cdk-nag";
import type { Function as SstFunction } from "sst/constructs";
import { deviceCloudSecretPaths } from "./functions.js";
import type { IncidentApi } from "./incident.js";
import type { Storage } from "./storage.js";

const BASIC_EXECUTION_ROLE =
  "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole";

/** cdk-nag (AwsSolutions): each suppression names its finding, its resource and its reason. */
export function suppressNagFindings(
  stack: Stack,
  {
    functions,
    evidence,
    incident,
    incidentApi,
    deviceCloudReaders,
  }: {
    functions: SstFunction[];
    evidence: SstFunction;
    incident: SstFunction;
    incidentApi: IncidentApi;
    /** The functions that read the accounts' DEVICE_CLOUD_* secrets (functions.ts). */
    deviceCloudReaders: SstFunction[];
  },
  { evidenceBucket, stagingBucket }: Pick<Storage, "evidenceBucket" | "stagingBucket">,
) {
  for (const fn of functions) {
    NagSuppressions.addResourceSuppressions(fn.role as iam.IRole, [
      {
        id: "AwsSolutions-IAM4",
        reason: "AWSLambdaBasicExecutionRole grants only CloudWatch Logs writes, which every function needs.",
        appliesTo: [BASIC_EXECUTION_ROLE],
      },
    ]);
  }
  for (const fn of deviceCloudReaders) {
    NagSuppressions.addResourceSuppressions(
      fn.role as iam.IRole,
      [
        {
          id: "AwsSolutions-IAM5",
          reason:
            "The device-cloud accounts' SST secrets (DEVICE_CLOUD_<ID>_*), the stage's and the fallback: one ARN per secret would pass IAM's inline-policy size at a hundred accounts.",
          appliesTo: deviceCloudSecretPaths().map(
            (path) => `Resource::arn:<AWS::Partition>:ssm:${stack.region}:${stack.account}:parameter${path}`,
          ),
        },
      ],
      true,
    );
  }
  const arnOf = (bucket: s3.Bucket) => stack.getLogicalId(bucket.node.defaultChild as s3.CfnBucket);
  NagSuppressions.addResourceSuppressions(
    evidence.role as iam.IRole,
    [
      {
        id: "AwsSolutions-IAM5",
        reason:
          "Object ARNs under the evidence/ prefix: the narrowest form S3 offers for objects whose keys are made at run time.",
        appliesTo: [
          `Resource::<${arnOf(evidenceBucket)}.Arn>/evidence/*`,
          `Resource::<${arnOf(stagingBucket)}.Arn>/evidence/*`,
        ],
      },
      {
        id: "AwsSolutions-IAM5",
        reason:
          "Claim-pack zips under the staging bucket's packs/ prefix, one per alert, keyed by its evidence prefix.",
        appliesTo: [`Resource::<${arnOf(stagingBucket)}.Arn>/packs/*`],
      },
    ],
    true,
  );
  NagSuppressions.addResourceSuppressions(
    incident.role as iam.IRole,
    [
      {
        id: "AwsSolutions-IAM5",
        reason:
          "Reads (and presigns) evidence objects under the evidence/ prefix, whose keys are made at run time.",
        appliesTo: [`Resource::<${arnOf(evidenceBucket)}.Arn>/evidence/*`],
      },
      {
        id: "AwsSolutions-IAM5",
        reason:
          "Reads (and presigns) the claim-pack zips under the staging bucket's packs/ prefix, keyed per alert.",
        appliesTo: [`Resource::<${arnOf(stagingBucket)}.Arn>/packs/*`],
      },
    ],
    true,
  );
  // Every route of the incident API: the share-link token in the path is the authorization, checked
  // by the function against its stored SHA-256 (issue 15); the people who open it have no AWS or
  // Cognito identity to authorize.
  NagSuppressions.addResourceSuppressions(
    incidentApi.api,
    [
      {
        id: "AwsSolutions-APIG4",
        reason: "Capability URLs: the share-link token in the path authorizes, checked by the function.",
      },
    ],
    true,
  );
  const sstMetadataHandler = stack.node.tryFindChild("CustomResourceHandler");
  if (sstMetadataHandler) {
    NagSuppressions.addResourceSuppressions(
      sstMetadataHandler,
      [
        {
          id: "AwsSolutions-L1",
          reason: "SST's own stack-metadata handler; its runtime is SST's choice, not ours.",
        },
        {
          id: "AwsSolutions-IAM4",
          reason: "SST's own stack-metadata handler uses the basic execution role for its logs.",
          appliesTo: [BASIC_EXECUTION_ROLE],
        },
      ],
      true,
    );
  }
}
