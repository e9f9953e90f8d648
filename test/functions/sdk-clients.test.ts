import { SNSClient } from "@aws-sdk/client-sns";
import { describe, expect, it } from "vitest";
import { tableRef, withoutSdkLogging } from "../../packages/functions/src/runtime.js";

const loggerSteps = (client: { middlewareStack: { identify(): string[] } }) =>
  client.middlewareStack.identify().filter((step) => step.startsWith("loggerMiddleware"));

describe("the handlers' AWS SDK clients", () => {
  it("copy no request or response for a logger that is not there", () => {
    const env = { AWS_REGION: "eu-central-1" };
    // The SDK adds it to every client; the poller's table, topic and queue clients go without it.
    expect(loggerSteps(new SNSClient(env))).toHaveLength(1);
    expect(loggerSteps(withoutSdkLogging(new SNSClient(env)))).toEqual([]);
    expect(loggerSteps(tableRef(env, "alerts").documents)).toEqual([]);
  });
});
