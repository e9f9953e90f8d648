import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PublishCommand } from "@aws-sdk/client-sns";
import {
  groupsFileSchema,
  loadGroupsFile,
  RoutingValidationError,
  recipientId,
  UNROUTED_RECIPIENT,
} from "@fleet-alerts/core/routing";
import { webhookSecretSchema } from "@fleet-alerts/core/webhooks";
import { describe, expect, it } from "vitest";
import { passwordEnvOf, simulatedAccountIds } from "../../packages/local/src/accounts.js";
import { startEmulators } from "../../packages/local/src/emulators.js";
import {
  DEFAULT_GROUPS_FILE,
  forAccounts,
  LOCAL_WEBHOOK_TARGET,
  withWebhookTarget,
} from "../../packages/local/src/groups.js";
import { recipientsOf, subscribeRecipients } from "../../packages/local/src/recipients-inbox.js";
import type { LocalLine } from "../../packages/local/src/report.js";
import {
  generateWebhookSecret,
  localWebhookUrl,
  targetEnv,
  webhookSecret,
} from "../../packages/local/src/webhook.js";
import { runScript } from "../support/run-script.js";

describe("the local mode's accounts", () => {
  it("are two simulated fleets by default, none named main, each with its own password variable", () => {
    expect(simulatedAccountIds(2)).toEqual(["north", "south"]);
    expect(simulatedAccountIds(1)).toEqual(["north"]);
    expect(() => simulatedAccountIds(0)).toThrow(RangeError);
    expect(() => simulatedAccountIds(5)).toThrow(RangeError);
    expect(passwordEnvOf("north")).toBe("DEVICE_CLOUD_NORTH_PASSWORD");
    expect(passwordEnvOf("depot-7")).toBe("DEVICE_CLOUD_DEPOT_7_PASSWORD");
  });
});

describe("the local groups file", () => {
  it("is valid: a depot per default fleet, a night shift with quiet hours, a digest", async () => {
    const file = await loadGroupsFile(DEFAULT_GROUPS_FILE);
    expect(file.groups.map((group) => group.name)).toEqual([
      "north-depot",
      "south-depot",
      "night-shift",
      "ops-digest",
    ]);
    const selected = file.groups.flatMap((group) => group.select.accounts ?? []);
    expect(new Set(selected)).toEqual(new Set(simulatedAccountIds(2)));
    expect(file.groups.find((group) => group.name === "night-shift")?.quietHours).toBeDefined();
    expect(file.groups.find((group) => group.name === "ops-digest")?.digest).toBeDefined();
    for (const group of file.groups) {
      // Capped SMS must still reach a person by email (the routing validation's rule).
      if (group.sms.length > 0) expect(group.email.length, group.name).toBeGreaterThan(0);
      for (const address of group.email) expect(address).toMatch(/@example\.test$/);
      for (const number of group.sms) expect(number).toMatch(/^\+1555\d{7}$/);
    }
    // One subscription per distinct address, filtering on its id.
    const recipients = recipientsOf(file);
    expect(recipients).toHaveLength(6);
    expect(recipients).toContainEqual({
      id: recipientId("sms", "+15550000001"),
      channel: "sms",
      address: "+15550000001",
    });
  });

  it("has a subscription per recipient: a message published to one (attribute `to`) reaches that one only", async () => {
    const emulators = await startEmulators({ subscribeInbox: false });
    try {
      const { sns, sqs } = emulators.clients;
      const inboxes = await subscribeRecipients(emulators, sqs, await loadGroupsFile(DEFAULT_GROUPS_FILE));
      const publish = (to: string, alertId: string) =>
        sns.send(
          new PublishCommand({
            TopicArn: emulators.topicArn,
            Subject: "CRITICAL GSensor",
            Message: "{}",
            MessageAttributes: {
              to: { DataType: "String", StringValue: to },
              kind: { DataType: "String", StringValue: "alert" },
              alert_id: { DataType: "String", StringValue: alertId },
            },
          }),
        );
      await publish(recipientId("email", "north.manager@example.test"), "north:1:gsensor");
      await publish(UNROUTED_RECIPIENT, "south:2:gsensor");
      const got = await inboxes.read();
      expect(got).toEqual(
        expect.arrayContaining([
          {
            type: "notified",
            channel: "email",
            recipient: "north.manager@example.test",
            kind: "alert",
            alertId: "north:1:gsensor",
            subject: "CRITICAL GSensor",
          },
          expect.objectContaining({ recipient: "ops (unrouted)", alertId: "south:2:gsensor" }),
        ]),
      );
      expect(got).toHaveLength(2);
    } finally {
      await emulators.close();
    }
  });

  it("leaves out the groups of fleets that do not run, and refuses an invalid file listing every problem", async () => {
    const file = await loadGroupsFile(DEFAULT_GROUPS_FILE);
    expect(forAccounts(file, ["north"]).groups.map((group) => group.name)).not.toContain("south-depot");
    expect(forAccounts(file, ["cloud"]).groups.map((group) => group.name)).toEqual([
      "night-shift",
      "ops-digest",
    ]);
    const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-groups-test-"));
    const bad = join(folder, "groups.json");
    await writeFile(bad, JSON.stringify({ groups: [{ name: "Bad Name", sms: ["0800"] }] }));
    const error = await loadGroupsFile(bad).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RoutingValidationError);
    expect((error as Error).message).toMatch(/groups\.0\.name: must be lower-case/);
    expect((error as Error).message).toMatch(/groups\.0\.sms\.0: must be an E\.164 number/);
  });

  it("gets, with --webhook, a webhook target and a group sending every alert to it", async () => {
    const file = withWebhookTarget(await loadGroupsFile(DEFAULT_GROUPS_FILE));
    expect(groupsFileSchema.parse(file)).toEqual(file);
    expect(file.targets[LOCAL_WEBHOOK_TARGET]).toEqual({ kind: "webhook", includeDriverName: false });
    const group = file.groups.at(-1);
    expect(group).toMatchObject({ name: LOCAL_WEBHOOK_TARGET, targets: [LOCAL_WEBHOOK_TARGET], email: [] });
    // No selector: every alert, of every account and severity.
    expect(group?.select).toEqual({ minSeverity: "info" });
    expect(() => withWebhookTarget(file)).toThrow(RoutingValidationError);
  });
});

describe("--webhook", () => {
  it("takes https anywhere, and plain http only to this machine", () => {
    expect(localWebhookUrl("https://hooks.example.test/fleet")).toBe("https://hooks.example.test/fleet");
    expect(localWebhookUrl("http://127.0.0.1:8787/hook")).toBe("http://127.0.0.1:8787/hook");
    expect(localWebhookUrl("http://localhost:8787")).toBe("http://localhost:8787/");
    expect(() => localWebhookUrl("http://hooks.example.test/fleet")).toThrow(/https/);
    expect(() => localWebhookUrl("ftp://127.0.0.1/x")).toThrow(/https/);
    expect(() => localWebhookUrl("not a url")).toThrow(/not a URL/);
    expect(() => localWebhookUrl("https://user:pass@hooks.example.test/")).toThrow(/credentials/);
  });

  it("signs with WEBHOOK_SECRET, or a generated whsec_ secret of 32 random bytes; a bad one is refused unrepeated", () => {
    const generated = webhookSecret({});
    expect(generated.generated).toBe(true);
    expect(webhookSecretSchema.parse(generated.secret)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(generated.secret);
    const given = `whsec_${randomBytes(24).toString("base64")}`;
    expect(webhookSecret({ WEBHOOK_SECRET: given })).toEqual({ secret: given, generated: false });
    const wrong = "whsec_tooshort";
    expect(() => webhookSecret({ WEBHOOK_SECRET: wrong })).toThrow(/^WEBHOOK_SECRET: must be "whsec_"/);
    expect(() => webhookSecret({ WEBHOOK_SECRET: wrong })).not.toThrow(/tooshort/);
    expect(targetEnv(LOCAL_WEBHOOK_TARGET, { url: "https://h.example.test/", secret: given })).toEqual({
      TARGET_LOCAL_WEBHOOK_URL: "https://h.example.test/",
      TARGET_LOCAL_WEBHOOK_SECRET: given,
    });
  });

  it("npm start: prints a generated secret once at the start, never one set in WEBHOOK_SECRET", async () => {
    const evidenceDir = await mkdtemp(join(tmpdir(), "fleet-alerts-webhook-"));
    const args = [
      ...["--json", "--duration", "1", "--accounts", "1", "--devices", "2"],
      ...["--evidence-dir", evidenceDir, "--webhook", "http://127.0.0.1:9/hook"],
    ];
    const given = `whsec_${randomBytes(32).toString("base64")}`;
    const env = { POWERTOOLS_METRICS_DISABLED: "true", WEBHOOK_SECRET: "" };
    // A groups file that leaves the critical rules unheard: refused before anything starts.
    const unheard = join(evidenceDir, "groups.json");
    await writeFile(
      unheard,
      JSON.stringify({
        groups: [{ name: "speeding", email: ["a@example.test"], select: { rules: ["overspeed"] } }],
      }),
    );
    const [generated, fromEnv, refused, unrouted] = await Promise.all([
      runScript("packages/local/src/main.ts", args, env),
      runScript("packages/local/src/main.ts", args, { ...env, WEBHOOK_SECRET: given }),
      runScript("packages/local/src/main.ts", ["--webhook", "http://hooks.example.test/"], env),
      runScript("packages/local/src/main.ts", ["--groups", unheard], env),
    ]);
    const started = (stdout: string) =>
      stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line) as LocalLine)
        .find((line) => line.type === "started");

    expect(generated.code).toBe(0);
    const secret = started(generated.stdout)?.webhook?.generatedSecret as string;
    expect(webhookSecretSchema.safeParse(secret).success).toBe(true);
    expect(generated.output.split(secret)).toHaveLength(2);

    expect(fromEnv.code).toBe(0);
    expect(started(fromEnv.stdout)?.webhook).toEqual({ target: LOCAL_WEBHOOK_TARGET });
    expect(fromEnv.output).not.toContain(given);
    expect(fromEnv.output).not.toContain(given.slice(6));

    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/--webhook: must be https:\/\//);
    expect(refused.output).not.toMatch(/locally:/);

    expect(unrouted.code).not.toBe(0);
    expect(unrouted.output).toMatch(/critical rule "gsensor" of account "north" reaches no group/);
    expect(unrouted.output).not.toMatch(/locally:/);
    // Three processes at once on a busy machine: more than the default 30 s.
  }, 60_000);
});
