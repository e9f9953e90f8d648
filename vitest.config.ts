import { defineConfig } from "vitest/config";

// Every test talks only to servers it starts itself on 127.0.0.1; nothing may reach AWS.
const env = {
  AWS_EC2_METADATA_DISABLED: "true",
  AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE: "1",
  // The SDK warns on Node 20 that its 2027 releases need Node 22; Lambda runs 24.
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  SST_TELEMETRY_DISABLED: "1",
  // Handlers under test log through Powertools: keep the test output to what matters.
  POWERTOOLS_LOG_LEVEL: "SILENT",
  POWERTOOLS_METRICS_DISABLED: "true",
};

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // No share-link token may show in the run's output: each file's is watched.
    setupFiles: ["test/support/token-free-output.ts"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/infra/**"],
          env,
          // Two files at a time even on a 2-vCPU runner (the default is one fewer than the CPUs):
          // most of a file's time is spent waiting on the emulators, servers and browsers it starts.
          maxWorkers: 2,
        },
      },
      {
        // SST keeps module-level state and shares .sst/: infrastructure tests run one file at a
        // time in forked processes.
        extends: true,
        test: {
          name: "infra",
          include: ["test/infra/**/*.test.ts"],
          env: { ...env, SST_STAGE: "test" },
          // One synth per stage for the whole run (test/support/stage-synth.ts).
          globalSetup: ["test/support/synth-cache-setup.ts"],
          pool: "forks",
          fileParallelism: false,
          testTimeout: 120_000,
          // A synth in beforeAll takes 10-20 s, more on a loaded runner.
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
