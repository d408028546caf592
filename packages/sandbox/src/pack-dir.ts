// Packs a checkout on the worker's disk (the repository at the run's commit) into a tar stream
// for copy-in. Symlinks are packed as links (never followed on the host); other special files
// are skipped.
import { createReadStream } from "node:fs";
import { lstat, readdir, readlink } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import tar from "tar-stream";

export function packDirectory(root: string): Readable {
  const pack = tar.pack();
  const walk = async (rel: string): Promise<void> => {
    const names = await readdir(join(root, rel));
    names.sort();
    for (const name of names) {
      const relPath = rel === "" ? name : `${rel}/${name}`;
      const abs = join(root, relPath);
      const st = await lstat(abs);
      const base = { name: relPath, mode: st.mode & 0o777, mtime: st.mtime };
      if (st.isDirectory()) {
        pack.entry({ ...base, type: "directory" });
        await walk(relPath);
      } else if (st.isSymbolicLink()) {
        pack.entry({ ...base, type: "symlink", linkname: await readlink(abs) });
      } else if (st.isFile()) {
        await new Promise<void>((resolve, fail) => {
          createReadStream(abs).pipe(
            pack.entry({ ...base, type: "file", size: st.size }, (e) => (e ? fail(e) : resolve())),
          );
        });
      }
    }
  };
  walk("")
    .then(() => pack.finalize())
    .catch((error: unknown) =>
      pack.destroy(error instanceof Error ? error : new Error(String(error))),
    );
  return Readable.from(pack);
}
