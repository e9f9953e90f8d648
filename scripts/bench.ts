/**
 * `npm run bench`: the performance figures, measured (never asserted by tests), each beside its
 * baseline from the same run and its target, met or not. The same figures go to .build/bench.json
 * with the machine they ran on.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, totalmem } from "node:os";
import { reportAccountsCost } from "./bench/accounts-report.js";
import { measureBacklog } from "./bench/backlog.js";
import { reportBacklogBeside } from "./bench/backlog-baseline.js";
import { measureColdStarts } from "./bench/cold-start.js";
import { monthlyCost } from "./bench/cost.js";
import { measureEvidence } from "./bench/evidence.js";
import { synthesizeHandlers } from "./bench/handlers.js";
import { measureIncidentPage } from "./bench/incident.js";
import { reportLatencyModes } from "./bench/latency-report.js";
import { measureOutageDrill } from "./bench/outage-drill.js";
import { measureParkedCost } from "./bench/parked-cost.js";
import { measurePollerMemory, type PollerMemoryFigures } from "./bench/poller-memory.js";
import { reportRecorderAudit } from "./bench/recorder-audit.js";
import { defaultRules, hundredRules, measureRuleEvaluation } from "./bench/rules.js";
import { runSectionsAlone } from "./bench/sections-alone.js";

const machine = {
  cpus: cpus().length,
  cpu: cpus()[0]?.model,
  memoryGiB: Math.round(totalmem() / 2 ** 30),
  node: process.version,
};
const began = performance.now();
console.log(`Machine: ${machine.cpus} x ${machine.cpu}, ${machine.memoryGiB} GiB, Node ${machine.node}\n`);

interface Target {
  section: string;
  figure: string;
  target: string;
  met: boolean;
}
const targets: Target[] = [];
const judge = (section: string, figure: string, target: string, met: boolean) => {
  targets.push({ section, figure, target, met });
  return `target ${target}: ${met ? "met" : "NOT MET"}`;
};
const thousands = (value: number) => Math.round(value).toLocaleString("en");
function printTargets(): void {
  const minutes = (performance.now() - began) / 60_000;
  console.log(
    `\nTargets (${alone.length > 0 ? `sections ${alone.join(", ")}` : "whole run"} ${minutes.toFixed(1)} min)`,
  );
  for (const target of targets) {
    console.log(
      `   ${target.met ? "met    " : "NOT MET"}  ${target.section.padEnd(16)} ${target.figure.padEnd(34)} ${target.target}`,
    );
  }
}

// `npm run bench -- 3 6b`: only those sections (sections-alone.ts).
const alone = process.argv.slice(2);
if (alone.length > 0) {
  await runSectionsAlone(alone, judge);
  printTargets();
  process.exit(0);
}

/** 3b: every catch-up's peak RSS within 100 MiB, and the largest within 10 MiB of the smallest. */
function reportCatchUps({ catchUps, idle }: PollerMemoryFigures): void {
  const [first] = catchUps;
  for (const run of catchUps) {
    const pace =
      first === undefined || run === first
        ? ""
        : `, ${(run.eventsPerSecond / first.eventsPerSecond).toFixed(2)}× the ${thousands(first.events)}-event run's`;
    console.log(
      `   catching up ${thousands(run.events)} events, ${thousands(run.alerts)} alerts in ${run.seconds} s (${thousands(run.eventsPerSecond)} events/s${pace}): peak RSS ${run.peakRssMiB} MiB   ${judge("Poller memory", `${thousands(run.events)} events: peak RSS ${run.peakRssMiB} MiB`, "<= 100 MiB", run.peakRssMiB <= 100)}`,
    );
  }
  const peaks = catchUps.map((run) => run.peakRssMiB);
  const growth = Math.round((Math.max(...peaks) - Math.min(...peaks)) * 100) / 100;
  console.log(
    `   the largest catch-up's peak over the smallest's: ${growth} MiB   ${judge("Poller memory", `largest peak ${growth} MiB over the smallest`, "<= 10 MiB", growth <= 10)}`,
  );
  console.log(`   baseline, a run that finds nothing: peak RSS ${idle.peakRssMiB} MiB`);
}
/** Every DynamoDB request that writes: single-item writes and batches alike count one each. */
const dynamoWriteRequests = (requests: Record<string, number>) =>
  ["PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem", "TransactWriteItems"].reduce(
    (sum, operation) => sum + (requests[`DynamoDB ${operation}`] ?? 0),
    0,
  );

console.log("1. Backlog catch-up (real poll handler; dynalite and fauxqs in a process of their own)");
const backlog = await measureBacklog();
console.log(
  `   ${thousands(backlog.events)} events, ${thousands(backlog.alerts)} alerts in ${backlog.pipelineSeconds} s: ${thousands(backlog.eventsPerSecond)} events/s, ${thousands(backlog.alertsPerSecond)} alerts/s   ${judge("Backlog", `${thousands(backlog.alertsPerSecond)} alerts/s`, ">= 1,000 alerts/s", backlog.alertsPerSecond >= 1_000)}`,
);
console.log(
  `   baseline, one Publish per alert and nothing recorded: ${thousands(backlog.naiveAlertsPerSecond)} alerts/s   ${judge("Backlog", `${(backlog.alertsPerSecond / backlog.naiveAlertsPerSecond).toFixed(2)}x naive`, ">= the naive loop's rate", backlog.alertsPerSecond >= backlog.naiveAlertsPerSecond)}`,
);
const writesPerAlert = dynamoWriteRequests(backlog.requests) / backlog.alerts;
console.log(
  `   DynamoDB write requests per alert: ${writesPerAlert.toFixed(2)} (before issue 17: 2.13, a record and its mark as published)   ${judge("Backlog", `${writesPerAlert.toFixed(2)} writes per alert`, "<= 0.15 write requests per alert", writesPerAlert <= 0.15)}`,
);
const contextCost = 1 - backlog.alertsPerSecond / backlog.withoutContext.alertsPerSecond;
console.log(
  `   with incident context (${thousands(backlog.gpsCalls)} /api/gps calls): ${thousands(backlog.alertsPerSecond)} alerts/s; without (lookups off): ${thousands(backlog.withoutContext.alertsPerSecond)} alerts/s in ${backlog.withoutContext.pipelineSeconds} s   ${judge("Backlog", `context costs ${(contextCost * 100).toFixed(1)}% of throughput`, "<= 20% of throughput", contextCost <= 0.2)}`,
);
console.log(
  `   the catch-ups that warmed the process up first, not counted: ${backlog.warmUpAlertsPerSecond.map(thousands).join(", ")} alerts/s`,
);
console.log(
  `   baseline, the client alone reading the events: ${thousands(backlog.rawReadEventsPerSecond)} events/s`,
);
console.log(
  `   the emulator's ceiling: ${thousands(backlog.dynaliteConditionalPutsPerSecond)} conditional PutItem/s; the catch-up made ${JSON.stringify(backlog.requests)}`,
);

const backlogBeside = await reportBacklogBeside(judge);

console.log("\n2. Rule evaluation (the pure evaluator)");
measureRuleEvaluation(defaultRules(), 50_000); // warm-up
const withDefaults = measureRuleEvaluation(defaultRules(), 1_000_000);
const withHundred = measureRuleEvaluation(hundredRules(), 200_000);
console.log(
  `   default rules (${withDefaults.rules}): ${thousands(withDefaults.eventsPerSecond)} events/s   ${judge("Rule evaluation", `${thousands(withDefaults.eventsPerSecond)} events/s`, ">= 1,000,000 events/s", withDefaults.eventsPerSecond >= 1_000_000)}`,
);
console.log(`   100 rules: ${thousands(withHundred.eventsPerSecond)} events/s`);

const latency = await reportLatencyModes(judge);
const production = latency.production;

const handlers = await synthesizeHandlers();
try {
  console.log(
    `\n3b. The poller's memory (the deployed bundle alone in a process, with Lambda's heap limits at production's ${production.memoryMb} MB)`,
  );
  const pollerMemory = await measurePollerMemory(handlers, production.memoryMb);
  reportCatchUps(pollerMemory);
  console.log(
    `\n3c. The outage drill: a 1,000-device fleet's device cloud refusing every call, then back (the deployed poll bundle at ${production.memoryMb} MB, run after run of 50 s until one catches up)`,
  );
  const outageDrill = await measureOutageDrill(handlers, production.memoryMb);
  for (const outage of outageDrill)
    console.log(
      `   ${outage.hours} h: ${thousands(outage.events)} events (${thousands(outage.alerts)} alerts sent, ${thousands(outage.stale)} held back as stale) drained in ${outage.runs} runs, ${outage.drainSeconds} s of them; peak RSS ${outage.peakRssMiB} MiB   ${judge("Outage drill", `${outage.hours} h: peak RSS ${outage.peakRssMiB} MiB`, `<= 90% of ${production.memoryMb} MB`, outage.peakRssMiB <= 0.9 * production.memoryMb)}`,
    );
  console.log(
    "\n4. Evidence (the deployed evidence handler alone in a process; simulator -> fauxqs S3 in its own process)",
  );
  const evidence = await measureEvidence(handlers);
  const rssList = evidence.runs.map((run) => run.peakRssMiB).join(", ");
  console.log(
    `   ${evidence.clipMinutes} min at ${evidence.bitrateBitsPerSecond / 1e6} Mbit/s, ${thousands(evidence.storedBytes)} bytes stored, ${evidence.runs.length} runs (a clip each): ${evidence.runs.map((run) => `${run.seconds} s`).join(", ")}`,
  );
  console.log(
    `   peak RSS ${rssList} MiB, max ${evidence.workerPeakRssMiB} MiB   ${judge("Evidence", `peak RSS max ${evidence.workerPeakRssMiB} MiB of ${evidence.runs.length}`, "<= 100 MiB", evidence.workerPeakRssMiB <= 100)}`,
  );
  const storeShare = evidence.workerMBps / evidence.storeOnlyMBps;
  console.log(
    `   throughput ${evidence.runs.map((run) => run.MBps).join(", ")} MiB/s, median ${evidence.workerMBps} MiB/s; baseline, the S3 half alone (same store, clip from memory): ${evidence.storeOnlyMBps} MiB/s   ${judge("Evidence", `${Math.round(storeShare * 100)}% of the S3 half alone`, ">= 90% of the S3 half alone", storeShare >= 0.9)}`,
  );
  console.log(`   baseline, the raw download to nowhere: ${evidence.rawMBps} MiB/s`);
  const { large, small } = evidence.bag;
  const bagShare = large.medianMs / 1000 / evidence.workerSeconds;
  console.log(
    `   claim pack (bag files and report.html; no clip read), median of 10: ${large.medianMs} ms around the ${evidence.clipMinutes}-min set, ${(bagShare * 100).toFixed(2)}% of its ${evidence.workerSeconds} s   ${judge("Claim pack", `${(bagShare * 100).toFixed(2)}% of the evidence time`, "< 5% of the evidence time", bagShare < 0.05)}`,
  );
  const rssSpread = Math.abs(large.peakRssMiB - small.peakRssMiB);
  console.log(
    `   its peak RSS: ${large.peakRssMiB} MiB (+${large.rssGrowthMiB}) around ${thousands(large.clipBytes)} bytes of clips, ${small.peakRssMiB} MiB (+${small.rssGrowthMiB}) around ${thousands(small.clipBytes)} (the same set at 128 kbit/s: the same track and report), ${small.medianMs} ms   ${judge("Claim pack", `peak RSS ${large.peakRssMiB} vs ${small.peakRssMiB} MiB`, "no growth with clip size (within 4 MiB)", rssSpread <= 4)}`,
  );

  console.log("\n5. Cold start (each handler as the synth bundles it; module initialisation, median of 10)");
  const coldStarts = await measureColdStarts(handlers);
  for (const result of coldStarts) {
    const kib = Math.round(result.bundleBytes / 1024);
    console.log(
      `   ${result.handler.padEnd(9)} ${String(kib).padStart(5)} KiB   ${judge("Cold start", `${result.handler} ${kib} KiB`, "<= 1,024 KiB", result.bundleBytes <= 1024 * 1024)}   init ${result.medianInitMs} ms   ${judge("Cold start", `${result.handler} init ${result.medianInitMs} ms`, "<= 150 ms", result.medianInitMs <= 150)}`,
    );
  }

  console.log("\n6. Monthly AWS cost of one production stage");
  const cost = monthlyCost(backlog, evidence, handlers);
  console.log(
    `   ${cost.fleet.devices} devices, ${thousands(cost.volumes.events)} events, ${thousands(cost.volumes.alerts)} alerts, ${thousands(cost.volumes.evidenceJobs)} evidence jobs a month (assumed rates: scripts/bench/cost.ts); ${cost.region} prices read ${cost.pricesReadOn}`,
  );
  for (const line of cost.lines) {
    console.log(
      `   ${line.service.padEnd(10)} ${line.item.padEnd(46)} ${thousands(line.quantity).padStart(13)}   ${line.usd.toFixed(2).padStart(7)} USD`,
    );
  }
  console.log(
    `   Lambda, DynamoDB, SNS, SQS and S3: ${cost.pipelineUsd.toFixed(2)} USD   ${judge("Cost", `${cost.pipelineUsd.toFixed(2)} USD a month`, "< 10 USD before SMS and storage", cost.pipelineUsd < 10)}`,
  );
  console.log(
    `   apart: SMS ${cost.smsUsd.toFixed(2)} USD, storage ${cost.storageUsd.toFixed(2)} USD, CloudWatch ${cost.cloudWatchUsd.toFixed(2)} USD`,
  );

  const byAccounts = reportAccountsCost(production.pollEverySeconds, latency.profile, handlers);

  console.log(
    "\n6c. Evidence waiting for offline vehicles: parked against today's retries (scripts/bench/parked-cost.ts)",
  );
  const parkedCost = await measureParkedCost();
  const { scenario, today, parked } = parkedCost;
  console.log(
    `   ${scenario.alertsPerMonth} alerts a month whose vehicles stay offline ${scenario.offlineDays} days (card retention ${scenario.retentionDays} days), one account of ${thousands(scenario.devices)} devices`,
  );
  console.log(
    `   today's retries (every 60 s doubling to 15 min, given up at ${scenario.giveUpHours} h): ${today.deviceCloudCallsPerAlert} record-map calls and invocations per alert, ${thousands(today.deviceCloudCallsPerMonth)} calls and ${today.usdPerMonth.toFixed(4)} USD a month; footage lost: ${today.footageLostPerMonth}`,
  );
  console.log(
    `   parked: ${parked.deviceCloudCallsPerAlert} calls per alert (${JSON.stringify(parked.perAlert.deviceCloud)}; AWS ${JSON.stringify(parked.perAlert.aws)}), the hourly sweep ${JSON.stringify(parked.sweep.deviceCloud)} while anything is parked: ${thousands(parked.deviceCloudCallsPerMonth)} calls and ${parked.usdPerMonth.toFixed(4)} USD a month; footage lost: ${parked.footageLostPerMonth}   ${judge("Parked evidence", `${thousands(parked.deviceCloudCallsPerMonth)} device-cloud calls a month`, "fewer than today's retries, no footage lost within retention", parked.deviceCloudCallsPerMonth < today.deviceCloudCallsPerMonth && parked.footageLostPerMonth === 0)}`,
  );

  console.log(
    "\n7. Incident page (the app alone in a process; dynalite and fauxqs in another; autocannon here, 10 connections)",
  );
  const incidentPage = await measureIncidentPage();
  const { page, unknownToken } = incidentPage;
  console.log(
    `   GET /i/<token>, ${incidentPage.seconds} s after ${incidentPage.warmUpSeconds} s of warm-up: ${thousands(page.requests)} pages, ${page.requestsPerSecond} req/s   ${judge("Incident page", `${page.requestsPerSecond} req/s`, ">= 100 req/s", page.requestsPerSecond >= 100)}`,
  );
  console.log(
    `   p50 ${page.p50Ms} ms, p99 ${page.p99Ms} ms, max ${page.maxMs} ms   ${judge("Incident page", `p99 ${page.p99Ms} ms`, "p99 <= 250 ms", page.p99Ms <= 250)}`,
  );
  console.log(
    `   ${page.non2xx} non-2xx, ${page.errors} connection errors   ${judge("Incident page", `${page.non2xx + page.errors} pages not 200`, "every page 200", page.non2xx === 0 && page.errors === 0)}`,
  );
  console.log(
    `   each page: ${page.appCpuMsPerResponse} ms of the app's CPU, ${thousands(page.bytes)} bytes, AWS requests ${JSON.stringify(page.awsRequestsPerResponse)}`,
  );
  const notFound = unknownToken.statuses["404"] ?? 0;
  console.log(
    `   unknown tokens (a new one each request): ${unknownToken.requestsPerSecond} req/s, p99 ${unknownToken.p99Ms} ms, ${unknownToken.appCpuMsPerResponse} ms of CPU and ${JSON.stringify(unknownToken.awsRequestsPerResponse)} each; ${thousands(notFound)} of ${thousands(unknownToken.requests)} answered 404   ${judge("Incident page", `${thousands(unknownToken.requests - notFound)} unknown not 404`, "every unknown token 404", notFound === unknownToken.requests && unknownToken.errors === 0)}`,
  );

  const recorderAudit = await reportRecorderAudit(judge);

  printTargets();
  await mkdir(".build", { recursive: true });
  await writeFile(
    ".build/bench.json",
    `${JSON.stringify(
      {
        machine,
        date: new Date().toISOString(),
        targets,
        backlog,
        backlogBeside,
        ruleEvaluation: { withDefaults, withHundred },
        latency,
        pollerMemory,
        outageDrill,
        evidence,
        coldStarts,
        cost,
        accountsCost: byAccounts,
        parkedCost,
        incidentPage,
        recorderAudit,
      },
      null,
      2,
    )}\n`,
  );
  console.log("\nFigures written to .build/bench.json");
} finally {
  await handlers.remove();
}
