import { mergeConfig } from "vitest/config";
import { workspaceTestConfig } from "../../vitest.shared.ts";

// Browser test files each start a web process and a chromium: one file at a time.
export default mergeConfig(workspaceTestConfig(import.meta.dirname), {
  test: { fileParallelism: false },
});
