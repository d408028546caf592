// For the events end-to-end tests (issue #25): the web process's HTTP routes (createWebServer,
// as apps/web wires them, without pages) on loopback whose run queue is the worker platform's,
// GitHub App deliveries signed and posted to it as GitHub sends them, and a pull request's head
// commit that exists in the repository only under `refs/pull/<n>/head` (a fork's, as GitHub
// keeps it in the base repository).
import { execFileSync } from "node:child_process";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { signedDelivery } from "@secondshift/events/testing/payloads";
import { createWebServer } from "@secondshift/web/server";
import type { Platform } from "./platform.ts";

export interface WebHooks {
  base: string;
  close(): Promise<void>;
}

export async function startWebHooks(p: Platform): Promise<WebHooks> {
  const server = createWebServer({
    db: p.t.db,
    keyring: p.keyring,
    syncQueue: p.worker.syncQueue,
    runQueue: p.worker.runQueue,
    logger: p.logger.child({ service: "web" }),
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Answer {
  status: number;
  message: string;
}

/** Posts one signed delivery; GitHub's status and our message. */
export async function deliver(
  url: string,
  secret: string,
  event: string,
  payload: unknown,
): Promise<Answer> {
  const { headers, body } = await signedDelivery(secret, event, payload);
  const response = await fetch(url, { method: "POST", headers, body });
  const { message } = (await response.json()) as { message: string };
  return { status: response.status, message };
}

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "Fork",
      GIT_AUTHOR_EMAIL: "fork@example.test",
      GIT_COMMITTER_NAME: "Fork",
      GIT_COMMITTER_EMAIL: "fork@example.test",
    },
    stdio: ["ignore", "pipe", "pipe"],
  })
    .toString()
    .trim();

/**
 * A commit on `base` with `files` changed, pushed to the bare repository only as
 * `refs/pull/<number>/head` (no branch points at it); returns its SHA.
 */
export async function pushPullHead(
  bare: string,
  base: string,
  number: number,
  files: Record<string, string>,
): Promise<string> {
  const work = await mkdtemp(join(tmpdir(), "e2e-fork-"));
  try {
    git(work, "init", "--quiet");
    git(work, "fetch", "--quiet", bare, base);
    git(work, "checkout", "--quiet", "--detach", base);
    for (const [path, content] of Object.entries(files)) {
      await mkdir(dirname(join(work, path)), { recursive: true });
      await writeFile(join(work, path), content);
    }
    git(work, "add", "--all");
    git(work, "commit", "--quiet", "-m", `pull request ${number}`);
    git(work, "push", "--quiet", bare, `HEAD:refs/pull/${number}/head`);
    return git(work, "rev-parse", "HEAD");
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** Branch names the bare repository has (refs/heads/…). */
export function branchesOf(bare: string): string[] {
  return git(bare, "for-each-ref", "--format=%(refname)", "refs/heads").split("\n").filter(Boolean);
}
