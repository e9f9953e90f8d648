#!/usr/bin/env -S npx tsx
/**
 * `fleet-alerts`: the operator's command line. The command tree is built in ./cli/program.ts;
 * this entry point parses the process's arguments with it and reports what fails.
 */
import { cliProgram } from "./cli/program.js";

try {
  await cliProgram().parseAsync();
} catch (error) {
  // The errors that reach here (device cloud, AWS, files, refusals) have messages written for the
  // operator, and none carries a credential: the message alone, without a stack.
  console.error(`fleet-alerts: ${error instanceof Error ? error.message : String(error)}`);
  // Not process.exit(): it could cut off output still being written to a pipe.
  process.exitCode = 1;
}
