import { defineConfig, mergeConfig } from "vitest/config";
import { workspaceTestConfig } from "../vitest.shared.ts";

// Scenario files share one machine's Docker engine and two cores: run them one at a time.
// The sandbox image is (re)built first when missing or made from other docker/sandbox files.
export default mergeConfig(
  workspaceTestConfig(import.meta.dirname, { testTimeout: 180_000 }),
  defineConfig({
    test: {
      fileParallelism: false,
      globalSetup: ["../packages/sandbox/src/testing/global-setup.ts"],
    },
  }),
);
