// Shared test setup: the real engine (DOCKER_HOST honoured by dockerode), the test image, small
// limits so that the limit tests finish quickly, and a logger whose lines the tests can read.
import { Writable } from "node:stream";
import Docker from "dockerode";
import { createLogger } from "@secondshift/logging";
import { createSandboxManager } from "../manager.ts";
import type { SandboxLimits, SandboxManagerConfig } from "../types.ts";

export const image = process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test";
export const docker = new Docker();

export const limits: SandboxLimits = {
  memoryBytes: 384 * 1024 * 1024,
  nanoCpus: 1_000_000_000,
  pidsLimit: 128,
  nofile: 1024,
  workspaceBytes: 32 * 1024 * 1024,
  tmpBytes: 16 * 1024 * 1024,
};

export function memoryLogger(): { logger: ReturnType<typeof createLogger>; lines: () => string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split("\n").filter(Boolean));
      done();
    },
  });
  return {
    logger: createLogger({ name: "sandbox-test", level: "debug", destination }),
    lines: () => lines,
  };
}

export function manager(overrides: Partial<SandboxManagerConfig> = {}) {
  return createSandboxManager({
    docker,
    image,
    runtime: "runsc",
    production: true,
    allowRunc: false,
    limits,
    logger: memoryLogger().logger,
    ...overrides,
  });
}

export function runOptions(
  runId = `test-${Math.random().toString(36).slice(2, 10)}`,
  deadlineMs = 10 * 60_000,
) {
  return { runId, workspaceId: "ws-test", deadline: new Date(Date.now() + deadlineMs) };
}
