/**
 * Section 1c: the backlog catch-up (backlog.ts's measureBacklog) of this code beside that of the
 * code before issue 41 (BASELINE), both measured in this run. Issue 41 added a write to each chunk
 * with alerts (its publication's claim) and to each batch of rule states (their fence); its target
 * is a catch-up no slower than before.
 *
 * The baseline runs from a worktree of its commit under .build/ (git-ignored), made once and
 * reused. It borrows this checkout's node_modules, as long as both lockfiles are the same: a
 * directory of links to this checkout's entries, except @fleet-alerts, whose links point at the
 * worktree's own packages/*, as npm links its workspaces (node_modules/@fleet-alerts/core ->
 * ../../packages/core); a workspace package's own node_modules (its nested dependencies) is
 * linked as a whole.
 */
import { execFile } from "node:child_process";
import { lstat, mkdir, readdir, readFile, readlink, symlink } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { BacklogFigures } from "./backlog.js";
import { forkedFigures } from "./forked-figures.js";

/** `main` before issue 41. */
export const BASELINE = { commit: "960f88e80354fcc3b992e6fde1b641348914c8cc", name: "960f88e" } as const;

const run = promisify(execFile);
const CHECKOUT = fileURLToPath(new URL("../../", import.meta.url));
const WORKTREE = join(CHECKOUT, ".build", `baseline-${BASELINE.name}`);

export interface CatchUpSide {
  alerts: number;
  /** Each run's alerts a second, in order, and their harmonic mean (the alerts over the runs' time). */
  runsAlertsPerSecond: number[];
  alertsPerSecond: number;
  /** The naive loop's, in the same runs (each one Publish per alert, nothing recorded). */
  naiveAlertsPerSecond: number;
}

export type BacklogBeside =
  | { measured: true; baseline: CatchUpSide; current: CatchUpSide; ratio: number }
  | { measured: false; reason: string };

/**
 * Four catch-ups, each measureBacklog in a process of its own (with its own emulators, simulator
 * and warm-ups): baseline, this, this, baseline. Each side's runs sit as far from the run's start
 * on average as the other's, so a machine that drifts steadily along the run favours neither.
 */
export async function measureBacklogBeside(): Promise<BacklogBeside> {
  let worktree: string;
  try {
    worktree = await baselineWorktree();
  } catch (error) {
    return { measured: false, reason: (error as Error).message };
  }
  const catchUp = (cwd: string) => forkedFigures<BacklogFigures>("./backlog-process.ts", {}, cwd);
  const baselineA = await catchUp(worktree);
  const currentA = await catchUp(CHECKOUT);
  const currentB = await catchUp(CHECKOUT);
  const baselineB = await catchUp(worktree);
  const baseline = side([baselineA, baselineB]);
  const current = side([currentA, currentB]);
  return {
    measured: true,
    baseline,
    current,
    ratio: Math.round((current.alertsPerSecond / baseline.alertsPerSecond) * 100) / 100,
  };
}

/** Section 1c: measures, prints both sides and judges the target (bench.ts's `judge`). */
export async function reportBacklogBeside(
  judge: (section: string, figure: string, target: string, met: boolean) => string,
): Promise<BacklogBeside> {
  console.log(
    `\n1c. The backlog catch-up beside the code before issue 41 (${BASELINE.name}, a worktree in .build/; each run in a process of its own: baseline, this, this, baseline)`,
  );
  const target = `>= the baseline's alerts/s (${BASELINE.name}, same run)`;
  const beside = await measureBacklogBeside();
  if (!beside.measured) {
    console.log(
      `   not measured: ${beside.reason}   ${judge("Backlog", `beside ${BASELINE.name}: not measured`, target, false)}`,
    );
    return beside;
  }
  const thousands = (value: number) => Math.round(value).toLocaleString("en");
  const line = (name: string, figures: CatchUpSide) =>
    `   ${name}: ${thousands(figures.alerts)} alerts, ${thousands(figures.alertsPerSecond)} alerts/s (${figures.runsAlertsPerSecond.map(thousands).join(" and ")}); its naive loop ${thousands(figures.naiveAlertsPerSecond)} alerts/s (${(figures.alertsPerSecond / figures.naiveAlertsPerSecond).toFixed(2)}x)`;
  console.log(line(`baseline ${BASELINE.name}`, beside.baseline));
  console.log(line("this code", beside.current));
  console.log(
    `   this code's catch-up over the baseline's: ${beside.ratio.toFixed(2)}x   ${judge("Backlog", `${beside.ratio.toFixed(2)}x ${BASELINE.name}'s catch-up`, target, beside.ratio >= 1)}`,
  );
  return beside;
}

function side(runs: BacklogFigures[]): CatchUpSide {
  const harmonicMean = (rates: number[]) => rates.length / rates.reduce((sum, rate) => sum + 1 / rate, 0);
  const runsAlertsPerSecond = runs.map((figures) => figures.alertsPerSecond);
  return {
    alerts: runs[0]?.alerts ?? 0,
    runsAlertsPerSecond,
    alertsPerSecond: Math.round(harmonicMean(runsAlertsPerSecond)),
    naiveAlertsPerSecond: Math.round(harmonicMean(runs.map((figures) => figures.naiveAlertsPerSecond))),
  };
}

/** The baseline's worktree, made and linked if it is not yet; an Error saying why it cannot be. */
async function baselineWorktree(): Promise<string> {
  const git = async (...args: string[]) => (await run("git", args, { cwd: CHECKOUT })).stdout.trim();
  const present = await git("cat-file", "-e", `${BASELINE.commit}^{commit}`).then(
    () => true,
    () => false,
  );
  if (!present) {
    const shallow = await git("rev-parse", "--is-shallow-repository").catch(() => "unknown");
    throw new Error(
      shallow === "true"
        ? `this clone is shallow and lacks ${BASELINE.name} (git fetch --unshallow, then run again)`
        : `${BASELINE.name} is not in this checkout's git history`,
    );
  }
  if (!(await exists(WORKTREE)))
    // --force: a worktree whose folder was deleted stays registered until pruned; it is made again.
    await git("worktree", "add", "--force", "--detach", WORKTREE, BASELINE.commit);
  const head = (await run("git", ["rev-parse", "HEAD"], { cwd: WORKTREE })).stdout.trim();
  if (head !== BASELINE.commit) throw new Error(`${WORKTREE} is at ${head}, not ${BASELINE.commit}`);
  const lockfile = (root: string) => readFile(join(root, "package-lock.json"), "utf8");
  if ((await lockfile(WORKTREE)) !== (await lockfile(CHECKOUT)))
    throw new Error(
      `${BASELINE.name}'s package-lock.json differs from this checkout's: npm ci in ${WORKTREE}`,
    );
  await linkNodeModules();
  return WORKTREE;
}

/** The worktree's node_modules and each workspace package's, linked as the header says. */
async function linkNodeModules(): Promise<void> {
  const linked = join(WORKTREE, "node_modules");
  await mkdir(join(linked, "@fleet-alerts"), { recursive: true });
  for (const entry of await readdir(join(CHECKOUT, "node_modules"))) {
    if (entry !== "@fleet-alerts") await link(join(CHECKOUT, "node_modules", entry), join(linked, entry));
  }
  // npm's own relative links (../../packages/<name>), which from the worktree reach its packages.
  for (const name of await readdir(join(CHECKOUT, "node_modules", "@fleet-alerts"))) {
    await link(
      await readlink(join(CHECKOUT, "node_modules", "@fleet-alerts", name)),
      join(linked, "@fleet-alerts", name),
    );
  }
  for (const name of await readdir(join(CHECKOUT, "packages"))) {
    const nested = join(CHECKOUT, "packages", name, "node_modules");
    if (await exists(nested)) await link(nested, join(WORKTREE, "packages", name, "node_modules"));
  }
}

async function link(target: string, path: string): Promise<void> {
  if (!(await exists(path))) await symlink(target, path);
}

/** Whether `path` exists itself (a link counts, wherever it points). */
const exists = (path: string) =>
  lstat(path).then(
    () => true,
    () => false,
  );
