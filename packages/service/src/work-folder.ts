// A service's own work folder (the worker's exported repositories, git homes and sync
// checkouts): emptied at every start, so what a killed process left behind (a crash mid-sync or
// mid-run) does not pile up. Only the folder's contents go; the folder itself stays, so a mount
// point (a volume or tmpfs) keeps working.
import { mkdir, readdir, rm } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";

/** Creates the folder if needed (owner-only) and removes everything in it; returns the count. */
export async function emptyWorkFolder(dir: string): Promise<number> {
  // The setting is checked when the environment is read; this guard is for callers that build
  // their settings by hand.
  if (!isAbsolute(dir) || resolve(dir) === "/")
    throw new Error(
      `Refusing to empty "${dir}": the work folder must be an absolute folder of its own.`,
    );
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const entries = await readdir(dir);
  await Promise.all(entries.map((name) => rm(join(dir, name), { recursive: true, force: true })));
  return entries.length;
}
