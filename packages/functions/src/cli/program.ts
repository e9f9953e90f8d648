/**
 * The `fleet-alerts` command tree, built without parsing anything: `cli.ts` parses the process's
 * arguments with it, and the repository's tests walk it to check that every command and flag the
 * documentation shows exists. Each command group lives in its own module beside this one.
 */
import { Command } from "commander";
import { auditCommand } from "./audit.js";
import { cursorCommand } from "./cursor.js";
import { devicesCommand } from "./devices.js";
import { doctorCommand } from "./doctor.js";
import { eventsCommand } from "./events.js";
import { evidenceCommand } from "./evidence.js";
import { replayCommand } from "./replay.js";
import { rulesCommand } from "./rules.js";
import { setAsideCommand } from "./set-aside.js";
import { shareCommand } from "./share.js";
import { targetCommand } from "./target.js";

export function cliProgram(): Command {
  return new Command()
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
}
