import { relative } from "node:path";
import { synthesize } from "../infra/synth.js";

const stage = process.env.SST_STAGE ?? "synth";
const { assembly, outdir } = await synthesize({ stage, outdir: process.env.SYNTH_OUTDIR ?? ".build/synth" });
for (const stack of assembly.stacks) {
  console.log(`${stack.stackName}: ${relative(process.cwd(), `${outdir}/${stack.templateFile}`)}`);
}
