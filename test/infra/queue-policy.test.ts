import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import { evidenceEnvSchema } from "@fleet-alerts/core/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../support/emulators.js";
import { synthesizedStage } from "../support/stage-synth.js";

// The evidence function marks an evidence job failed on its last receive (EVIDENCE_MAX_RECEIVES),
// before SQS moves it to the DLQ: the queue's maxReceiveCount and that setting must agree, in AWS,
// in the local mode and in the tests alike.
let resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
let emulators: Emulators;

beforeAll(async () => {
  resources = (await synthesizedStage("test")).template.Resources;
  emulators = await startEmulators();
});
afterAll(() => emulators?.close());

const maxReceiveCount = (id: string) =>
  (resources[id]?.Properties.RedrivePolicy as { maxReceiveCount?: number } | undefined)?.maxReceiveCount;

async function emulatedMaxReceiveCount(queueUrl: string): Promise<number> {
  const { Attributes } = await emulators.clients.sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["RedrivePolicy"] }),
  );
  return (JSON.parse(Attributes?.RedrivePolicy ?? "{}") as { maxReceiveCount: number }).maxReceiveCount;
}

describe("the evidence queue's maxReceiveCount", () => {
  it("is the same in the template, the function's setting and default, and the emulators", async () => {
    const deployed = maxReceiveCount("EvidenceQueue0DEC5F58");
    const evidenceFunction = resources.Evidence4CC26D68?.Properties as {
      Environment: { Variables: Record<string, string> };
    };
    expect({
      functionSetting: Number(evidenceFunction.Environment.Variables.EVIDENCE_MAX_RECEIVES),
      configDefault: evidenceEnvSchema.shape.EVIDENCE_MAX_RECEIVES.parse(undefined),
      emulators: await emulatedMaxReceiveCount(emulators.queues.evidence),
    }).toEqual({ functionSetting: deployed, configDefault: deployed, emulators: deployed });
  });
});
