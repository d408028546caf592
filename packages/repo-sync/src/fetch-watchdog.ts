// Bounds what a fetch writes to the worker's disk (C12). git 2.39 has no client-side cap on a
// fetch's size (`receive.maxInputSize` binds servers only), and the tree limits are checked
// from the fetched objects, so only after everything is on disk. While git fetches, this polls
// how far the object database has grown since the fetch began, and stops git past the cap.
import { lstat, readdir, rm } from "node:fs/promises";
import { basename, join } from "node:path";
import { AppError } from "@secondshift/errors";

const MIB = 1024 * 1024;
const POLL_MS = 200;

/**
 * The download cap for an operator's tree limit (REPOSITORY_MAX_MB in bytes). A depth-1 pack
 * holds each distinct blob of the commit once, zlib-compressed (incompressible data grows by a
 * few bytes per blob), plus the commit, its trees and the pack's index: so it exceeds the
 * tree's size only by that metadata, which max(1 MiB, 5 %) covers, and any tree the limit
 * accepts downloads within the cap.
 */
export function fetchByteCap(maxTreeBytes: number): number {
  return maxTreeBytes + Math.max(MIB, Math.ceil(maxTreeBytes * 0.05));
}

interface ObjectFiles {
  bytes: number;
  /** git's temporary files (tmp_pack_*, tmp_idx_*, tmp_obj_*): what a stopped git leaves. */
  temporary: string[];
}

/** Every file under `dir`; a file git renames or removes meanwhile is skipped. */
async function scanObjects(dir: string, into: ObjectFiles = { bytes: 0, temporary: [] }) {
  const entries = await readdir(dir, { withFileTypes: true }).catch(skipGone([]));
  await Promise.all(
    entries.map(async (entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return scanObjects(path, into);
      const info = await lstat(path).catch(skipGone(undefined));
      if (!info?.isFile()) return;
      into.bytes += info.size;
      if (basename(path).startsWith("tmp_")) into.temporary.push(path);
    }),
  );
  return into;
}

function skipGone<T>(fallback: T) {
  return (error: NodeJS.ErrnoException): T => {
    if (error.code === "ENOENT") return fallback;
    throw error;
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / MIB).toFixed(1)} MB`;
}

function tooLarge(grown: number, maxBytes: number): AppError {
  return new AppError(
    "PAYLOAD_TOO_LARGE",
    `The repository's download passed ${megabytes(grown)}, more than this server allows (${megabytes(maxBytes)}, set by REPOSITORY_MAX_MB). The download was stopped and nothing of it is used. Ask the operator to raise REPOSITORY_MAX_MB, or make the repository smaller.`,
    { reason: "REPOSITORY_TOO_LARGE" },
  );
}

export interface FetchCap {
  /** The repository's .git folder. */
  gitDir: string;
  /** Growth of .git/objects allowed for this fetch. */
  maxBytes: number;
  /** Undoes what a finished but refused fetch recorded (its ref). */
  onRefused?: () => Promise<unknown>;
  pollMs?: number;
}

/**
 * Runs `fetch` (which must stop git when its signal aborts) while watching .git/objects. Only
 * growth counts: a reused folder's earlier objects were measured before and are not this
 * fetch's. Past the cap, git is stopped, its temporary files are removed and the limit's
 * error is thrown; the objects of a refused fetch are left to the caller, which discards the
 * folder. One more look after git exits catches a fetch faster than the polling.
 */
export async function fetchWithinCap(
  cap: FetchCap,
  fetch: (signal: AbortSignal) => Promise<unknown>,
): Promise<void> {
  const objects = join(cap.gitDir, "objects");
  const before = (await scanObjects(objects)).bytes;
  const stop = new AbortController();
  let grown = 0;
  const look = async () => {
    const now = await scanObjects(objects);
    grown = Math.max(grown, now.bytes - before);
    if (grown > cap.maxBytes) stop.abort();
    return now;
  };

  let done = false;
  let polling: Promise<unknown> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const poll = () => {
    // A failed look is retried; the look after git exits reports a lasting failure.
    polling = look()
      .catch(() => undefined)
      .then(() => {
        if (!done && !stop.signal.aborted) timer = setTimeout(poll, cap.pollMs ?? POLL_MS);
      });
  };
  timer = setTimeout(poll, cap.pollMs ?? POLL_MS);

  const outcome = await fetch(stop.signal).then(
    () => ({ failed: false as const }),
    (error: unknown) => ({ failed: true as const, error }),
  );
  done = true;
  clearTimeout(timer);
  await polling;
  const last = await look();
  if (grown > cap.maxBytes) {
    await Promise.all(last.temporary.map((path) => rm(path, { force: true })));
    await cap.onRefused?.();
    throw tooLarge(grown, cap.maxBytes);
  }
  if (outcome.failed) throw outcome.error;
}
