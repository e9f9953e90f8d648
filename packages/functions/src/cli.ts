#!/usr/bin/env -S npx tsx
/**
 * `fleet-alerts`: the operator's command line. Each command group lives in its own module under
 * ./cli/ and is added here.
 */
import { Command } from "commander";
import { auditCommand } from "./cli/audit.js";
import { cursorCommand } from "./cli/cursor.js";
import { devicesCommand } from "./cli/devices.js";
import { doctorCommand } from "./cli/doctor.js";
import { eventsCommand } from "./cli/events.js";
import { evidenceCommand } from "./cli/evidence.js";
import { replayCommand } from "./cli/replay.js";
import { rulesCommand } from "./cli/rules.js";
import { setAsideCommand } from "./cli/set-aside.js";
import { shareCommand } from "./cli/share.js";
import { targetCommand } from "./cli/target.js";

const program = new Command()
  .name("fleet-alerts")
  .description("Serverless event alerting for fleets of vehicle video recorders and GPS trackers")
  .showHelpAfterError()
  .addCommand(rulesCommand().addCommand(replayCommand()))
  .addCommand(cursorCommand())
  .addCommand(evidenceCommand())
  .addCommand(devicesCommand())
  .addCommand(eventsCommand())
  .addCommand(shareCommand())
  .addCommand(auditCommand())
  .addCommand(targetCommand())
  .addCommand(setAsideCommand())
  .addCommand(doctorCommand());

try {
  await program.parseAsync();
} catch (error) {
  // The errors that reach here (device cloud, AWS, files, refusals) have messages written for the
  // operator, and none carries a credential: the message alone, without a stack.
  console.error(`fleet-alerts: ${error instanceof Error ? error.message : String(error)}`);
  // Not process.exit(): it could cut off output still being written to a pipe.
  process.exitCode = 1;
}
