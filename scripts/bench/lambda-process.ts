import { execFile } from "node:child_process";
import { promisify } from "node:util";

/** What in a function's template shapes the process Lambda starts it in (scripts/bench/handlers.ts). */
export interface LambdaStartup {
  nodeOptions?: string;
  /** AWS_LAMBDA_EXEC_WRAPPER, as a path on this machine (in the synthesized bundle). */
  execWrapper?: string;
  /** What infra/runtime-wrapper.sh adds after the runtime's flags. */
  nodeFlagsAfterRuntime?: string;
}

const run = promisify(execFile);
const MIB = 2 ** 20;

/**
 * Node's flags as Lambda's Node.js runtime passes them, before its own script: the heap limits it
 * derives from the function's memory (a tenth for the young generation, its two semi-spaces, the
 * rest for the old one). Read from the runtime's bootstrap script as published in its images and by
 * lambci/docker-lambda (AWS documents none). Without them V8 sizes its heap by this machine's
 * memory; and being on the command line, they win over the same flags in NODE_OPTIONS.
 */
export function lambdaRuntimeFlags(memoryMb: number): string[] {
  const young = Math.floor(memoryMb / 10);
  return [
    "--expose-gc",
    "--max-http-header-size",
    "81920",
    `--max-semi-space-size=${Math.floor(young / 2)}`,
    `--max-old-space-size=${memoryMb - young}`,
  ];
}

/**
 * Runs a bundled handler once in a fresh process (scripts/bench/run-handler.mjs) started as Lambda
 * starts it at `memoryMb`: its runtime's flags on node's command line, the function's NODE_OPTIONS,
 * through the function's exec wrapper when it names one (which gets the command as its arguments,
 * the script last). Returns the last line run-handler.mjs printed, parsed.
 */
export async function runHandlerAsLambda<Result>(options: {
  bundle: string;
  eventFile: string;
  startup: LambdaStartup;
  memoryMb: number;
  /** The time the invocation has (its function's timeout); 900 s unless set. */
  remainingMs?: number;
  env: NodeJS.ProcessEnv;
}): Promise<Result> {
  const { startup } = options;
  const command = [
    process.execPath,
    ...lambdaRuntimeFlags(options.memoryMb),
    "scripts/bench/run-handler.mjs",
  ];
  const [file, ...args] = startup.execWrapper ? [startup.execWrapper, ...command] : command;
  const { stdout } = await run(file as string, args, {
    maxBuffer: 16 * MIB,
    env: {
      ...options.env,
      NODE_OPTIONS: startup.nodeOptions ?? "",
      ...(startup.nodeFlagsAfterRuntime && { NODE_FLAGS_AFTER_RUNTIME: startup.nodeFlagsAfterRuntime }),
      // Not arguments: the runtime's script is the command's last word, where the wrapper expects it.
      HANDLER_BUNDLE: options.bundle,
      HANDLER_EVENT_FILE: options.eventFile,
      ...(options.remainingMs !== undefined && { HANDLER_REMAINING_MS: String(options.remainingMs) }),
    },
  });
  return lastJsonLine({ stdout });
}

/** The last line a bench process printed, as JSON: each prints its figures there. */
export function lastJsonLine<T>({ stdout }: { stdout: string }): T {
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "") as T;
}
