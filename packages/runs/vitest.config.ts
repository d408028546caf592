import { mergeConfig } from "vitest/config";
import { workspaceTestConfig } from "../../vitest.shared.ts";

// executor.sandbox.test.ts runs a real gVisor sandbox: the sandbox package's global setup makes
// sure its image exists.
export default mergeConfig(workspaceTestConfig(import.meta.dirname), {
  test: { globalSetup: ["../sandbox/src/testing/global-setup.ts"], hookTimeout: 300_000 },
});
