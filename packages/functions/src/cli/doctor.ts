import type { Check, DoctorReport } from "@fleet-alerts/core/doctor";
import { terminalText } from "@fleet-alerts/core/text";
import { Command, Option } from "commander";
import { toJson } from "./format.js";
import { DEFAULT_LOCAL_ENDPOINTS_FILE } from "./local-endpoints.js";
import { CliError, integerAtLeast } from "./parse.js";

interface DoctorOptions {
  stage?: string;
  /** `--local` alone: the default endpoints file. */
  local?: string | true;
  json?: boolean;
  timeoutMs?: number;
}

/** `fleet-alerts doctor`: read-only checks of a stage, each ✔ or ✖ with what to do; exit code 1 on any ✖. */
export function doctorCommand(): Command {
  return new Command("doctor")
    .description(
      "check a stage without changing it: each account's secrets and last poll, schedules, dead-letter " +
        "queues, subscriptions, the evidence bucket's Object Lock, the TSA and the incident pages; " +
        "exit code 1 when a check fails",
    )
    .option("--stage <name>", "a deployed stage (AWS region and credentials from the standard environment)")
    .option("--local [file]", `a running npm start (its endpoints file, ${DEFAULT_LOCAL_ENDPOINTS_FILE})`)
    .option("--json", "print { stage, ok, checks } as JSON, for machines")
    .addOption(
      new Option("--timeout-ms <ms>", "time-out of each network call (default 5000)").argParser(
        integerAtLeast(100),
      ),
    )
    .action(doctor);
}

async function doctor(options: DoctorOptions): Promise<void> {
  if ((options.stage === undefined) === (options.local === undefined))
    throw new CliError(
      "say which stage: --stage <name> for a deployed one, or --local for a running npm start",
    );
  const { DEFAULT_CALL_TIMEOUT_MS, runDoctor } = await import("@fleet-alerts/core/doctor");
  const timeoutMs = options.timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const { target, ports, close } =
    options.local === undefined
      ? await (await import("./doctor-stage.js")).deployedStage(
          options.stage as string,
          process.env,
          timeoutMs,
        )
      : await (await import("./doctor-local.js")).localStage(
          options.local === true ? DEFAULT_LOCAL_ENDPOINTS_FILE : options.local,
          process.env,
          timeoutMs,
        );
  try {
    const report = await runDoctor(target, ports, { callTimeoutMs: timeoutMs });
    console.log(options.json ? toJson(report) : humanReport(report).join("\n"));
    // Not process.exit(): the report may still be on its way down a pipe.
    if (!report.ok) process.exitCode = 1;
  } finally {
    close();
  }
}

/** One line per check, its remedy indented under a failed one; texts from services shown inert. */
function humanReport(report: DoctorReport): string[] {
  const failed = report.checks.filter((check) => !check.ok).length;
  return [
    `stage ${terminalText(report.stage)}:`,
    ...report.checks.flatMap(checkLines),
    failed === 0
      ? `all ${report.checks.length} checks passed`
      : `${failed} of ${report.checks.length} checks failed`,
  ];
}

function checkLines(check: Check): string[] {
  const mark = check.skipped ? "–" : check.ok ? "✔" : "✖";
  const line = `${mark} ${terminalText(check.name)}: ${terminalText(check.detail)}`;
  return check.remedy === undefined ? [line] : [line, `    → ${terminalText(check.remedy)}`];
}
