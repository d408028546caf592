// Test helpers (`@secondshift/repo-sync/testing`): local git repositories and a smart-HTTP
// server on 127.0.0.1 that runs `git http-backend` as CGI and REQUIRES a Basic Authorization
// header carrying the planted token, so a test passes only if git really sent the credential.
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp, mkdir, writeFile, symlink } from "node:fs/promises";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const gitEnvForTests = (home: string) => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: home,
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_AUTHOR_NAME: "Test",
  GIT_AUTHOR_EMAIL: "test@example.test",
  GIT_COMMITTER_NAME: "Test",
  GIT_COMMITTER_EMAIL: "test@example.test",
});

export interface TestRepo {
  root: string;
  /** Bare repository served to the code under test. */
  bare: string;
  fileUrl: string;
  /** Commits files (path → content, or { symlink: target }) to main and pushes; returns the SHA. */
  commit(files: Record<string, string | { symlink: string }>, message?: string): Promise<string>;
}

export async function createTestRepo(): Promise<TestRepo> {
  const root = await mkdtemp(join(tmpdir(), "secondshift-repo-test-"));
  const bare = join(root, "srv", "acme", "widgets.git");
  const work = join(root, "work");
  const home = join(root, "home");
  await mkdir(home, { recursive: true });
  const env = gitEnvForTests(home);
  const git = (cwd: string, ...args: string[]) =>
    execFileSync("git", args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
      .toString()
      .trim();
  await mkdir(bare, { recursive: true });
  git(bare, "init", "--quiet", "--bare", "--initial-branch=main");
  // Serving a commit that is no branch head, as GitHub does.
  git(bare, "config", "uploadpack.allowReachableSHA1InWant", "true");
  git(root, "init", "--quiet", "--initial-branch=main", work);
  return {
    root,
    bare,
    fileUrl: `file://${bare}`,
    async commit(files, message = "change") {
      for (const [path, content] of Object.entries(files)) {
        const full = join(work, path);
        await mkdir(dirname(full), { recursive: true });
        if (typeof content === "string") await writeFile(full, content);
        else await symlink(content.symlink, full);
      }
      git(work, "add", "--all");
      git(work, "commit", "--quiet", "--allow-empty", "-m", message);
      git(work, "push", "--quiet", bare, "main");
      return git(work, "rev-parse", "HEAD");
    },
  };
}

export interface GitHttpServer {
  port: number;
  /** Authorization headers seen, in order (undefined when absent). */
  authorizations: Array<string | undefined>;
  close(): Promise<void>;
}

/** Serves `projectRoot` over git smart HTTP; 401 unless Basic user:token matches. */
export async function startGitHttpServer(
  projectRoot: string,
  credential: { username: string; token: string },
): Promise<GitHttpServer> {
  const expected = `Basic ${Buffer.from(`${credential.username}:${credential.token}`).toString("base64")}`;
  const authorizations: Array<string | undefined> = [];
  const server = createServer((req: IncomingMessage, res) => {
    authorizations.push(req.headers.authorization);
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { "www-authenticate": 'Basic realm="test"' }).end();
      return;
    }
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const cgi = spawn("git", ["http-backend"], {
      env: {
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: "1",
        GIT_CONFIG_NOSYSTEM: "1",
        GIT_CONFIG_GLOBAL: "/dev/null",
        REQUEST_METHOD: req.method ?? "GET",
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        CONTENT_TYPE: req.headers["content-type"] ?? "",
        REMOTE_ADDR: "127.0.0.1",
        REMOTE_USER: credential.username,
        ...(req.headers["content-encoding"]
          ? { HTTP_CONTENT_ENCODING: req.headers["content-encoding"] }
          : {}),
        ...(req.headers["git-protocol"]
          ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) }
          : {}),
      },
      stdio: ["pipe", "pipe", "ignore"],
    });
    req.pipe(cgi.stdin);
    let head = Buffer.alloc(0);
    let headersDone = false;
    cgi.stdout.on("data", (chunk: Buffer) => {
      if (headersDone) return void res.write(chunk);
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf("\r\n\r\n");
      if (end < 0) return;
      headersDone = true;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString("latin1").split("\r\n")) {
        const colon = line.indexOf(":");
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === "status") status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      res.writeHead(status, headers);
      res.write(head.subarray(end + 4));
    });
    cgi.on("close", () => res.end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    authorizations,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A git wrapper that logs every argv (one line per call) before running git. */
export async function argvLoggingGit(root: string): Promise<{ binary: string; log: string }> {
  const binary = join(root, "git-argv-logger");
  const log = join(root, "git-argv.log");
  await writeFile(binary, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec git "$@"\n`, {
    mode: 0o755,
  });
  await writeFile(log, "");
  return { binary, log };
}

/** Every file under `dir` (including .git), as one searchable buffer per file. */
export function grepTree(dir: string, needle: string): string[] {
  try {
    return execFileSync("grep", ["-rlaF", "--", needle, dir])
      .toString()
      .split("\n")
      .filter(Boolean);
  } catch {
    return []; // grep exits 1 when nothing matched
  }
}
