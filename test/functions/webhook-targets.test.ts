import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { targetResolver } from "../../packages/functions/src/webhook-targets.js";

const SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const URL_TOKEN = "T000/B000/s3cr3tT0k3n";
const targets = {
  "depot-north": { kind: "webhook", includeDriverName: false },
  chat: { kind: "slack", includeDriverName: false },
} as const;
const noRead = () => Promise.reject(new Error("SSM read"));

describe("a target's URL and secret", () => {
  it("come from the environment first, checked for the kind", async () => {
    const env = {
      TARGET_DEPOT_NORTH_URL: "https://hooks.example.com/in",
      TARGET_DEPOT_NORTH_SECRET: SECRET,
      SST_APP: "fleet-alerts",
    };
    const target = await targetResolver(env, targets, { allowLoopbackHttp: false, read: noRead })(
      "depot-north",
    );
    expect(target).toMatchObject({
      id: "depot-north",
      kind: "webhook",
      url: new URL("https://hooks.example.com/in"),
    });
    expect(target.key).toHaveLength(32);
  });

  it("else from SSM in a deployed stage, by their TARGET_<ID>_… names, each target once", async () => {
    const asked: string[][] = [];
    const read = async (_env: unknown, names: readonly string[]) => {
      asked.push([...names]);
      return { TARGET_CHAT_URL: `https://hooks.slack.com/services/${URL_TOKEN}` };
    };
    const resolve = targetResolver({ SST_APP: "fleet-alerts" }, targets, { allowLoopbackHttp: false, read });
    expect((await resolve("chat")).url.hostname).toBe("hooks.slack.com");
    await resolve("chat");
    expect(asked).toEqual([["TARGET_CHAT_URL"]]);
  });

  it("fail naming the target and the secret, never a value, and are read again next time", async () => {
    const env: Record<string, string> = {
      TARGET_DEPOT_NORTH_URL: `https://hooks.example.com/${URL_TOKEN}`,
      TARGET_DEPOT_NORTH_SECRET: `whsec_${URL_TOKEN}`,
    };
    const resolve = targetResolver(env, targets, { allowLoopbackHttp: false });
    const failure = await resolve("depot-north").catch((error: Error) => error.message);
    expect(failure).toMatch(/^target depot-north: TARGET_DEPOT_NORTH_SECRET must be "whsec_"/);
    expect(failure).not.toContain(URL_TOKEN);
    env.TARGET_DEPOT_NORTH_SECRET = SECRET;
    await expect(resolve("depot-north")).resolves.toMatchObject({ id: "depot-north" });
    await expect(resolve("nowhere")).rejects.toThrow("target nowhere is not in the groups file's targets");
  });
});
