// Shared Vitest settings: every workspace writes a JSON report to .test-results/ so that the
// test command can print one `N passed, N failed` line for the whole repository.
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = dirname(fileURLToPath(import.meta.url));

export function workspaceTestConfig(
  workspaceDir: string,
  overrides: { testTimeout?: number } = {},
) {
  const name = relative(root, workspaceDir).replaceAll("/", "-");
  return defineConfig({
    test: {
      include: ["src/**/*.test.ts", "test/**/*.test.ts"],
      testTimeout: overrides.testTimeout ?? 30_000,
      hookTimeout: 120_000,
      pool: "forks",
      passWithNoTests: true,
      reporters: ["default", "json"],
      outputFile: { json: resolve(root, ".test-results", `${name}.json`) },
    },
  });
}
