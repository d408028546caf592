import { defineConfig, mergeConfig } from "vitest/config";
import { workspaceTestConfig } from "../vitest.shared.ts";

// The smoke test builds images and runs whole compose stacks on the shared Docker engine: long
// steps, one file, one at a time. Run by scripts/test-all.sh's smoke step (`npm run smoke`), not
// by `npm test`, so day-to-day test runs stay fast.
export default mergeConfig(
  workspaceTestConfig(import.meta.dirname, { testTimeout: 900_000 }),
  defineConfig({ test: { fileParallelism: false, hookTimeout: 300_000 } }),
);
