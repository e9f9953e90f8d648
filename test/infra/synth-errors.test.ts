import { rm, writeFile } from "node:fs/promises";
import { afterAll, describe, expect, it } from "vitest";
import { runScript } from "../support/run-script.js";

// `npm run synth` as an ops team runs it, in a child process (SST keeps per-process state).
const synth = (stage: string) =>
  runScript("scripts/synth.ts", [], { SST_STAGE: stage, SYNTH_OUTDIR: `.build/synth-${stage}` });

const created: string[] = [];
async function stageFile(stage: string, config: unknown) {
  const file = `infra/stages/${stage}.json`;
  await writeFile(file, JSON.stringify(config));
  created.push(file);
}
afterAll(async () => {
  for (const file of [...created, "config/invalid-rules.test.json"]) await rm(file, { force: true });
});

describe("npm run synth refuses what cannot run", () => {
  it("fails on an invalid rules file, naming each problem", async () => {
    await writeFile(
      "config/invalid-rules.test.json",
      JSON.stringify({ rules: [{ id: "x", events: ["Overspeeed"], severity: "loud" }] }),
    );
    await stageFile("badrules", {
      accounts: [{ id: "north" }, { id: "south", rulesFile: "config/invalid-rules.test.json" }],
    });
    const { code, output } = await synth("badrules");
    expect(code).not.toBe(0);
    expect(output).toMatch(/rules\.0\.events\.0: unknown event name "Overspeeed"/);
    expect(output).toMatch(/rules\.0\.severity/);
  });

  it("fails on an invalid stage configuration, naming the field", async () => {
    await stageFile("badstage", { escalation: { levels: [{ sms: ["0151 123"] }] }, scheduleMinutes: 0 });
    const { code, output } = await synth("badstage");
    expect(code).not.toBe(0);
    expect(output).toMatch(/escalation\.levels\.0\.sms\.0: must be an E\.164 number/);
    expect(output).toMatch(/scheduleMinutes/);
  });
});
