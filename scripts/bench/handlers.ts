import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { LAMBDA_TASK_ROOT } from "../../infra/functions.js";
import { synthesize } from "../../infra/synth.js";
import type { LambdaStartup } from "./lambda-process.js";

export const HANDLERS = ["poll", "confirm", "evidence"] as const;
export type HandlerName = (typeof HANDLERS)[number];

export interface SynthesizedHandlers {
  /** Each handler's bundle exactly as a deployment ships it (the offline synth bundles it). */
  bundles: Record<HandlerName, string>;
  /** What in each function's template shapes the process Lambda starts it in. */
  startup: Record<HandlerName, LambdaStartup>;
  /** Each function's memory size in the template, in MB. */
  memoryMb: Record<HandlerName, number>;
  /** How many of each resource type the stack has (alarms and dashboards bill by the month). */
  resourceCounts: Record<string, number>;
  /** A folder for scratch files beside the bundles, removed with them. */
  folder: string;
  remove(): Promise<void>;
}

/** Synthesizes the stack offline into a temporary folder and finds each handler's bundle in it. */
export async function synthesizeHandlers(): Promise<SynthesizedHandlers> {
  const { outdir, assembly } = await synthesize({ stage: "bench" });
  const remove = () => rm(outdir, { recursive: true, force: true });
  try {
    const resources = assembly.stacks.flatMap(
      (stack) => Object.values(stack.template.Resources ?? {}) as LambdaResource[],
    );
    const functions = resources.filter((resource) => resource.Type === "AWS::Lambda::Function");
    const bundles = {} as Record<HandlerName, string>;
    const startup = {} as Record<HandlerName, LambdaStartup>;
    const memoryMb = {} as Record<HandlerName, number>;
    for (const handler of HANDLERS) {
      bundles[handler] = await findBundle(outdir, handler);
      const fn = functions.find(
        (resource) => resource.Properties.Handler === `packages/functions/src/${handler}.handler`,
      );
      if (!fn) throw new Error(`no function runs the ${handler} handler`);
      memoryMb[handler] = fn.Properties.MemorySize ?? 128;
      startup[handler] = startupOf(fn, bundles[handler], handler);
    }
    const resourceCounts: Record<string, number> = {};
    for (const resource of resources)
      resourceCounts[resource.Type] = (resourceCounts[resource.Type] ?? 0) + 1;
    return { bundles, startup, memoryMb, resourceCounts, folder: outdir, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}

interface LambdaResource {
  Type: string;
  Properties: { Handler?: string; MemorySize?: number; Environment?: { Variables?: Record<string, string> } };
}

/** The function's startup settings, its wrapper found in the bundle's asset as Lambda would find it. */
function startupOf(fn: LambdaResource, bundle: string, handler: HandlerName): LambdaStartup {
  const variables = fn.Properties.Environment?.Variables ?? {};
  const taskRoot = bundle.slice(0, -`packages/functions/src/${handler}.mjs`.length);
  const wrapper = variables.AWS_LAMBDA_EXEC_WRAPPER;
  if (wrapper !== undefined && !wrapper.startsWith(`${LAMBDA_TASK_ROOT}/`))
    throw new Error(`the ${handler} function's wrapper ${wrapper} is not in its bundle`);
  return {
    nodeOptions: variables.NODE_OPTIONS,
    // The bundle's asset folder is what Lambda unpacks at its task root.
    execWrapper: wrapper && join(taskRoot, wrapper.slice(LAMBDA_TASK_ROOT.length + 1)),
    nodeFlagsAfterRuntime: variables.NODE_FLAGS_AFTER_RUNTIME,
  };
}

/** The synthesized asset that holds packages/functions/src/<handler>.mjs. */
async function findBundle(outdir: string, handler: string): Promise<string> {
  for (const entry of await readdir(outdir)) {
    if (!entry.startsWith("asset.")) continue;
    const candidate = join(outdir, entry, "packages/functions/src", `${handler}.mjs`);
    if (await stat(candidate).catch(() => undefined)) return candidate;
  }
  throw new Error(`no bundle of the ${handler} handler in ${outdir}`);
}
