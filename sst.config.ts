import type { SSTConfig } from "sst";
import { Pipeline } from "./infra/Pipeline.js";

export default {
  config() {
    return { name: "fleet-alerts", region: process.env.AWS_REGION ?? "eu-west-1" };
  },
  async stacks(app) {
    // Lambda's nodejs20.x was deprecated on 2026-04-30; Graviton (arm64) is cheaper per ms.
    app.setDefaultFunctionProps({ runtime: "nodejs22.x", architecture: "arm_64" });
    // The stack is async (it validates the rules file): SST needs it awaited.
    await app.stack(Pipeline);
  },
} satisfies SSTConfig;
