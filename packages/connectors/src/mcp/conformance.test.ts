// The client scenarios of @modelcontextprotocol/conformance 0.1.13, run against a client CLI
// (conformance/client.ts) made of this package's MCP connector and OAuth flow. Offline: the
// runner starts its own loopback servers.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const runner = join(
  dirname(require.resolve("@modelcontextprotocol/conformance/package.json")),
  "dist",
  "index.js",
);
const tsx = join(dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
const client = resolve(import.meta.dirname, "../../conformance/client.ts");

const scenarios = [
  "initialize",
  "tools_call",
  "sse-retry",
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/resource-mismatch",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
];
const PARALLEL = 3;

interface Outcome {
  code: number | null;
  output: string;
}

function run(scenario: string, cwd: string): Promise<Outcome> {
  return new Promise((done) => {
    const child = spawn(
      process.execPath,
      [
        runner,
        "client",
        "--command",
        `"${process.execPath}" "${tsx}" "${client}"`,
        "--scenario",
        scenario,
        "--timeout",
        "60000",
      ],
      {
        cwd, // the runner writes results/ into its working directory
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    child.on("close", (code) => done({ code, output }));
  });
}

describe("MCP conformance 0.1.13 client scenarios", () => {
  const outcomes = new Map<string, Outcome>();
  const cwd = mkdtempSync(join(tmpdir(), "mcp-conformance-"));

  beforeAll(async () => {
    const queue = [...scenarios];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let s = queue.shift(); s !== undefined; s = queue.shift())
          outcomes.set(s, await run(s, cwd));
      }),
    );
  }, 600_000);
  afterAll(() => rmSync(cwd, { recursive: true, force: true }));

  it.each(scenarios)("%s passes", (scenario) => {
    const outcome = outcomes.get(scenario);
    const summary = outcome?.output
      .split("\n")
      .filter((l) => /Passed:|OVERALL|FAILURE|WARNING|Error/.test(l))
      .join("\n");
    expect(outcome?.output, summary).toMatch(/OVERALL: PASSED/);
    expect(outcome?.code).toBe(0);
  });
});
