import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Every test talks to servers it starts itself on 127.0.0.1; make sure nothing reaches AWS.
    env: { AWS_EC2_METADATA_DISABLED: "true", SST_TELEMETRY_DISABLED: "1" },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
