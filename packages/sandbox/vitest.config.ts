import { mergeConfig } from "vitest/config";
import { workspaceTestConfig } from "../../vitest.shared.ts";

// Real containers under gVisor: creation is ~0.5 s, the limit tests take a few seconds each.
// The global setup builds the sandbox image once when the engine does not have it yet.
export default mergeConfig(workspaceTestConfig(import.meta.dirname, { testTimeout: 60_000 }), {
  test: { globalSetup: ["./src/testing/global-setup.ts"], hookTimeout: 300_000 },
});
