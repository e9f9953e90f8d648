/**
 * `npm run bench`: the performance figures, measured (never asserted by tests). Each prints its
 * target and whether it was met; the same figures go to .build/bench.json with the machine.
 * Sections still to come (see the benchmark issue): event-to-alert latency, evidence memory and
 * throughput, monthly cost.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { measureBacklog } from "./bench/backlog.js";
import { measureColdStarts } from "./bench/cold-start.js";
import { defaultRules, hundredRules, measureRuleEvaluation } from "./bench/rules.js";

const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};
console.log(`Machine: ${machine.cpus} x ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}\n`);

const mark = (met: boolean) => (met ? "met" : "NOT MET");

console.log("Rule evaluation (pure evaluator)");
measureRuleEvaluation(defaultRules(), 50_000); // warm-up
const withDefaults = measureRuleEvaluation(defaultRules(), 1_000_000);
const withHundred = measureRuleEvaluation(hundredRules(), 200_000);
console.log(
  `  default rules (${withDefaults.rules}): ${withDefaults.eventsPerSecond.toLocaleString("en")} events/s   target >= 1,000,000: ${mark(withDefaults.eventsPerSecond >= 1_000_000)}`,
);
console.log(`  100 rules: ${withHundred.eventsPerSecond.toLocaleString("en")} events/s`);

console.log("\nBacklog catch-up (real poll handler, dynalite and fauxqs in-process)");
const backlog = await measureBacklog();
console.log(
  `  ${backlog.events} events, ${backlog.alerts} alerts in ${backlog.pipelineSeconds} s: ${backlog.eventsPerSecond} events/s, ${backlog.alertsPerSecond} alerts/s   target >= 1,000 alerts/s: ${mark(backlog.alertsPerSecond >= 1_000)}`,
);
console.log(
  `  baselines: the client alone reads ${backlog.rawReadEventsPerSecond} events/s; one Publish per alert: ${backlog.naiveAlertsPerSecond} alerts/s   target >= 5x naive: ${mark(backlog.alertsPerSecond >= 5 * backlog.naiveAlertsPerSecond)}`,
);

console.log("\nCold start (each handler as the synth bundles it for deployment; module initialisation in a fresh process, median of 10)");
const coldStarts = await measureColdStarts();
for (const result of coldStarts) {
  console.log(
    `  ${result.handler.padEnd(9)} ${(result.bundleBytes / 1024).toFixed(0).padStart(5)} KiB (target <= 1024: ${mark(result.bundleBytes <= 1024 * 1024)})   init ${result.medianInitMs} ms (target <= 150: ${mark(result.medianInitMs <= 150)})`,
  );
}

await mkdir(".build", { recursive: true });
await writeFile(
  ".build/bench.json",
  `${JSON.stringify({ machine, date: new Date().toISOString(), ruleEvaluation: { withDefaults, withHundred }, backlog, coldStarts }, null, 2)}\n`,
);
console.log("\nFigures written to .build/bench.json");
