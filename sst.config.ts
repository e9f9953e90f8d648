import type { SSTConfig } from "sst";
import { FUNCTION_DEFAULTS } from "./infra/functions.js";
import { Pipeline } from "./infra/Pipeline.js";

export default {
  config() {
    return { name: "fleet-alerts", region: process.env.AWS_REGION ?? "eu-west-1" };
  },
  async stacks(app) {
    // Runtime, architecture, bundling: set here once for every function (see infra/functions.ts).
    app.setDefaultFunctionProps(FUNCTION_DEFAULTS);
    // The stack is async (it validates the rules file): SST needs it awaited.
    await app.stack(Pipeline);
  },
} satisfies SSTConfig;
