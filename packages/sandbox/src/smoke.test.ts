import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { manager, runOptions } from "./test/harness.ts";
import type { Sandbox } from "./sandbox.ts";

describe("smoke", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await manager().create(runOptions());
  });
  afterAll(() => sb.destroy());
  it("runs a command", async () => {
    const r = await sb.exec("echo hello; echo err >&2; pwd; id -u; cat", { stdin: "in\n" });
    expect(r).toMatchObject({ exitCode: 0, stdout: "hello\n/workspace\n10001\nin\n", stderr: "err\n", timedOut: false });
  });
});
