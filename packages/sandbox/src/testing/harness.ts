// Shared test setup: the real engine (DOCKER_HOST honoured by dockerode), the test image, small
// limits so that the limit tests finish quickly, and a logger whose lines the tests can read.
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import Docker from "dockerode";
import { createLogger } from "@secondshift/logging";
import { createSandboxManager } from "../manager.ts";
import type { SandboxLimits, SandboxManagerConfig } from "../types.ts";

export const image = process.env.TEST_SANDBOX_IMAGE ?? "secondshift-sandbox:test";
export const docker = new Docker();
/** This test file's own installation: its reaper passes never touch another suite's sandboxes. */
export const installationId = `sandbox-test-${randomBytes(4).toString("hex")}`;

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
    installationId,
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

/**
 * Runs a script in the container directly through the engine, without the command wrapper and
 * its end-of-command sweep: it sees what an earlier command left running, and kills nothing.
 */
export async function peek(containerId: string, script: string): Promise<string> {
  const exec = await docker.getContainer(containerId).exec({
    Cmd: ["bash", "-c", script],
    User: "10001:10001",
    AttachStdout: true,
    AttachStderr: true,
  });
  return demuxedText(await exec.start({}));
}

/** An exec stream's output as text, without the engine's 8-byte multiplexing headers. */
export async function demuxedText(stream: NodeJS.ReadableStream): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  const buf = Buffer.concat(parts);
  const out: Buffer[] = [];
  for (let i = 0; i + 8 <= buf.length;) {
    const len = buf.readUInt32BE(i + 4);
    out.push(buf.subarray(i + 8, i + 8 + len));
    i += 8 + len;
  }
  return Buffer.concat(out).toString();
}

/** For peek: every process of the container but its init and idle one (session 1) and the
 *  peek's own (its session), one "sid pid args" line each. */
export const OTHER_PROCESSES = `ps -eo sid=,pid=,stat=,args= | awk -v me=$$ '$1 != 1 && $1 != me && $3 !~ /^Z/'`;
