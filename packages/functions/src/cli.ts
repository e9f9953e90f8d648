#!/usr/bin/env -S npx tsx
/**
 * `fleet-alerts`: the operator's command line. Each command group lives in its own module under
 * ./cli/ and is added here.
 */
import { Command } from "commander";
import { rulesCommand } from "./cli/rules.js";

const program = new Command()
  .name("fleet-alerts")
  .description("Serverless event alerting for fleets of vehicle video recorders and GPS trackers")
  .showHelpAfterError()
  .addCommand(rulesCommand());

await program.parseAsync();
