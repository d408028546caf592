// Repository copy-in: a tar stream is checked and rewritten entry by entry before it reaches
// `tar -x` inside the sandbox. Entries that would land outside the workspace are rejected (the
// whole copy fails and the workspace is emptied); git metadata loses credentials and tokens.
import { posix } from "node:path";
import { Readable } from "node:stream";
import { AppError } from "@secondshift/errors";
import tar from "tar-stream";
import type { RawExecResult } from "./exec.ts";

export function archiveEscape(name: string, why: string): AppError {
  return new AppError(
    "BAD_REQUEST",
    `The repository archive was rejected: entry "${name}" ${why}. Nothing was copied into the sandbox.`,
    { reason: "SANDBOX_ARCHIVE_ENTRY_ESCAPES" },
  );
}

/** Lexically normalised relative path, or null when it is absolute or climbs out. */
function safeRelative(name: string): string | null {
  if (name.includes("\0") || posix.isAbsolute(name)) return null;
  const normal = posix.normalize(name).replace(/\/+$/, "");
  if (normal === ".." || normal.startsWith("../")) return null;
  return normal === "" ? "." : normal;
}

const URL_USERINFO = /([a-z][a-z0-9+.-]*:\/\/)[^/@\s"]+@/gi;

/** Removes credential helpers, auth headers and tokens in remote URLs from a git config file. */
export function scrubGitConfig(text: string): string {
  const out: string[] = [];
  let inCredential = false;
  for (const line of text.split("\n")) {
    const section = /^\s*\[([^\]]+)\]/.exec(line);
    if (section) inCredential = /^credential\b/i.test(section[1]?.trim() ?? "");
    if (inCredential) continue;
    if (
      /^\s*(extraheader|helper|askpass|sslkey|sslcert|cookiefile|proxyauthmethod|proxy)\s*=/i.test(
        line,
      )
    )
      continue;
    out.push(line.replace(URL_USERINFO, "$1"));
  }
  return out.join("\n");
}

/** Git files that may carry a remote URL with a token (fetch records, reflog messages). */
function needsScrub(name: string): "config" | "urls" | null {
  if (name === ".git/config") return "config";
  if (name === ".git/FETCH_HEAD" || name.startsWith(".git/logs/")) return "urls";
  return null;
}

function isDropped(name: string): boolean {
  // Credentials git may keep beside the repository; never part of a commit's tree.
  return (
    name === ".git/credentials" ||
    name === ".git-credentials" ||
    name.startsWith(".git/credentials/")
  );
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

export interface SanitizedArchive {
  stream: Readable;
  /** Set when an entry was rejected; the stream then ends early. */
  readonly error: () => AppError | undefined;
}

/**
 * Streams `input` (a tar archive) to a new archive that is safe to extract in /workspace:
 * only files, directories and symlinks that stay inside; owner and setuid/setgid bits reset.
 * `onReject` is told at once when an entry is rejected or the input cannot be read.
 */
export function sanitizeArchive(
  input: Readable,
  onReject: (error: AppError) => void = () => {},
): SanitizedArchive {
  const extract = tar.extract();
  const pack = tar.pack();
  const symlinks = new Set<string>();
  let rejected: AppError | undefined;
  const reject = (error: AppError) => {
    if (rejected) return;
    rejected = error;
    extract.destroy();
    pack.finalize();
    onReject(error);
  };

  extract.on("entry", (header, body, next) => {
    void (async () => {
      const name = safeRelative(header.name);
      if (name === null)
        return reject(archiveEscape(header.name, "has an absolute path or climbs out with .."));
      const parts = name.split("/");
      for (let i = 1; i < parts.length; i++) {
        if (symlinks.has(parts.slice(0, i).join("/")))
          return reject(archiveEscape(header.name, "goes through a symlink"));
      }
      if (header.type === "symlink") {
        const target = header.linkname ?? "";
        const resolved = safeRelative(posix.join(posix.dirname(name), target));
        if (posix.isAbsolute(target) || resolved === null)
          return reject(
            archiveEscape(header.name, `is a symlink to "${target}", outside the workspace`),
          );
        symlinks.add(name);
      } else if (header.type !== "file" && header.type !== "directory") {
        return reject(
          archiveEscape(header.name, `has type ${header.type ?? "unknown"}, which is not allowed`),
        );
      }
      if (isDropped(name)) {
        body.resume();
        return next();
      }
      const base = {
        name,
        mode: (header.mode ?? 0o644) & 0o777,
        mtime: header.mtime ?? new Date(),
        uid: 10001,
        gid: 10001,
      };
      if (header.type === "directory") {
        body.resume();
        pack.entry({ ...base, type: "directory" });
      } else if (header.type === "symlink") {
        body.resume();
        pack.entry({ ...base, type: "symlink", linkname: header.linkname ?? "" });
      } else {
        const scrub = needsScrub(name);
        if (scrub === null) {
          // Ordinary files stream straight through: a large repository is never held in memory.
          await new Promise<void>((resolve, fail) => {
            const entry = pack.entry({ ...base, type: "file", size: header.size ?? 0 }, (e) =>
              e ? fail(e) : resolve(),
            );
            // A body that breaks midway (the input failed) breaks the entry: a rejection.
            body.on("error", fail);
            entry.on("error", fail);
            body.pipe(entry);
          });
          return next();
        }
        let content = await readAll(body as unknown as Readable);
        if (scrub === "config") content = Buffer.from(scrubGitConfig(content.toString("utf8")));
        if (scrub === "urls")
          content = Buffer.from(content.toString("utf8").replace(URL_USERINFO, "$1"));
        await new Promise<void>((resolve, fail) =>
          pack.entry({ ...base, type: "file", size: content.length }, content, (e) =>
            e ? fail(e) : resolve(),
          ),
        );
      }
      next();
    })().catch((cause: unknown) =>
      reject(
        new AppError("BAD_REQUEST", "The repository archive could not be read.", {
          reason: "SANDBOX_ARCHIVE_INVALID",
          cause,
        }),
      ),
    );
  });
  extract.on("finish", () => pack.finalize());
  extract.on("error", (cause) => {
    if (!rejected)
      reject(
        new AppError("BAD_REQUEST", "The repository archive could not be read.", {
          reason: "SANDBOX_ARCHIVE_INVALID",
          cause,
        }),
      );
  });
  input.on("error", (cause) => extract.destroy(cause));
  input.pipe(extract);
  const stream = Readable.from(pack);
  // An entry that breaks midway breaks the output too: already a rejection, not a crash.
  stream.on("error", (cause) =>
    reject(
      new AppError("BAD_REQUEST", "The repository archive could not be read.", {
        reason: "SANDBOX_ARCHIVE_INVALID",
        cause,
      }),
    ),
  );
  return { stream, error: () => rejected };
}

/** A repository copy takes longer than a file operation: 100,000 small files took 48 s here. */
export const COPY_IN_TIMEOUT_MS = 10 * 60_000;

const EMPTIED = "/workspace was emptied.";

/** The error of a failed copy, naming the part that failed; undefined when the copy worked. */
export function copyInFailure(
  readFailure: unknown,
  rejected: AppError | undefined,
  result: RawExecResult,
  lost?: AppError,
): AppError | undefined {
  if (readFailure !== undefined) {
    const detail = readFailure instanceof Error ? readFailure.message : "the stream failed.";
    return new AppError(
      "BAD_GATEWAY",
      `Reading the repository archive failed midway: ${detail} ${EMPTIED}`,
      { reason: "SANDBOX_COPY_IN_READ_FAILED", cause: readFailure },
    );
  }
  if (rejected) return rejected;
  const extracting = "Extracting the repository into /workspace";
  if (result.timedOut)
    return new AppError(
      "INTERNAL",
      `${extracting} took longer than ${COPY_IN_TIMEOUT_MS / 1000} s and was stopped. ${EMPTIED}`,
      { reason: "SANDBOX_COPY_IN_TIMEOUT" },
    );
  if (result.containerGone)
    return lost?.reason === "SANDBOX_OUT_OF_MEMORY"
      ? new AppError(
          "PAYLOAD_TOO_LARGE",
          `${extracting} failed: ${lost.message} The repository's files alone need about 6 KiB of memory each (REPOSITORY_MAX_FILES bounds how many are copied).`,
          { reason: "SANDBOX_OUT_OF_MEMORY" },
        )
      : new AppError("INTERNAL", `${extracting} failed: the sandbox stopped.`, {
          reason: "SANDBOX_COPY_IN_FAILED",
        });
  if (result.exitCode === 0) return undefined;
  const said = result.stderr.toString("utf8").trim().split("\n").slice(-3).join(" ").slice(0, 500);
  // tar reports a full tmpfs as a short write ("Wrote only N of M bytes").
  const full = /Wrote only|No space left/.test(said)
    ? " The sandbox's /workspace is full: its size is the operator's SANDBOX_WORKSPACE_MB, which should stay above REPOSITORY_MAX_MB."
    : "";
  return new AppError(
    "INTERNAL",
    `${extracting} failed: ${said || `tar ended with ${result.exitCode === null ? "a signal" : `exit code ${result.exitCode}`}`}.${full} ${EMPTIED}`,
    { reason: "SANDBOX_COPY_IN_FAILED" },
  );
}
