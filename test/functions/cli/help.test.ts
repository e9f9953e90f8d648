import { describe, expect, it } from "vitest";
import { fleetAlerts } from "./run.js";

describe("fleet-alerts --help", () => {
  it("lists every command, and each command its options, with no option for a password", async () => {
    const commands = [
      ["rules", "replay"],
      ["cursor", "set"],
      ["evidence", "fetch"],
      ["evidence", "request"],
      ["devices"],
      ["events", "tail"],
      ["share", "create"],
      ["audit"],
      ["doctor"],
    ];
    const [program, ...helps] = await Promise.all([
      fleetAlerts(["--help"]),
      ...commands.map((command) => fleetAlerts([...command, "--help"])),
    ]);
    expect(program?.code).toBe(0);
    for (const name of ["rules", "cursor", "evidence", "devices", "events", "share", "audit", "doctor"])
      expect(program?.stdout).toMatch(new RegExp(`\\n {2}${name}\\b`));

    const expectedOptions = [
      ["--from <time>", "--to <time>", "--rules <file>", "--now <time>", "--json"],
      ["--table <name>", "(env: TABLE_NAME)", "--account <id>", "(env: FLEET_ALERTS_ACCOUNT)", "--yes"],
      [
        "--device <id>",
        "--at <time>",
        "--before <seconds>",
        "--after <seconds>",
        "--channel <n>",
        "--out <file>",
        "--utc-offset <+hhmm>",
      ],
      [
        "--account <id>",
        "--device <id>",
        "--at <time>",
        "--channels <list>",
        "--reason <text>",
        "--by <name>",
        "--local [file]",
        "(env: EVIDENCE_QUEUE_URL)",
        "(env: PUBLIC_BASE_URL)",
        "--wait [seconds]",
        "(default: 30, env: SHARE_MAX_DAYS)",
      ],
      ["--json"],
      ["--from-serial <serialno>", "--interval <seconds>", "--duration <seconds>", "--codes <list>"],
      [
        "--table <name>",
        "(env: TABLE_NAME)",
        "--base-url <url>",
        "(env: PUBLIC_BASE_URL)",
        "--expires <duration>",
        "--max-expires <days>",
        "(default: 30, env: SHARE_MAX_DAYS)",
        "--scope <scope>",
        "--by <name>",
      ],
      ["--table <name>", "(env: TABLE_NAME)"],
      ["--stage <name>", "--local [file]", "--json", "--timeout-ms <ms>"],
    ];
    for (const [index, help] of helps.entries()) {
      const command = commands[index]?.join(" ");
      expect(help?.code).toBe(0);
      // Commander wraps long lines to the terminal's width: compare with the wrapping undone.
      const text = help?.stdout.replace(/\s+/g, " ");
      expect(text).toMatch(new RegExp(`^Usage: fleet-alerts ${command} `));
      for (const option of expectedOptions[index] ?? []) expect(text).toContain(option);
      expect(text).not.toMatch(/--password/);
      // Only the commands that reach the device cloud take its connection settings.
      // doctor reads a stage's secrets from the stage itself (SSM, or the local mode's file).
      if (!["cursor set", "share create", "audit", "evidence request", "doctor"].includes(command ?? "")) {
        for (const option of [
          "--base-url <url>",
          "(env: DEVICE_CLOUD_BASE_URL)",
          "--username <name>",
          "--account <id>",
          "--timeout-ms <ms>",
        ])
          expect(text).toContain(option);
        expect(text).toContain("The password is read from DEVICE_CLOUD_PASSWORD");
      }
    }
  });
});
