// File-count exhaustion (issue #22 item 6), tried for real under gVisor: runsc ignores tmpfs
// nr_inodes, and empty files take no tmpfs pages, so the tmpfs size cannot stop a flood of
// small files; the sandbox's memory does, and the run is told which limit it hit. Counting a
// workspace before its changes are copied out stops at the file cap.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limits, manager, runOptions } from "./testing/harness.ts";
import type { Sandbox } from "./sandbox.ts";
import { checkWorkspaceFiles } from "./workspace-count.ts";

const MIB = 1024 * 1024;

describe("file-count exhaustion", () => {
  it("[C11] a process creating empty files without end is stopped by the 128 MiB memory limit within seconds and reported with the named limit", async () => {
    // /workspace is large enough that its size is never what stops the flood.
    const sb = await manager({
      limits: { ...limits, memoryBytes: 128 * MIB, workspaceBytes: 512 * MIB },
    }).create(runOptions());
    try {
      const started = Date.now();
      const flood = sb.exec(
        'python3 -c \'i = 0\nwhile True:\n  open("/workspace/f%d" % i, "w").close(); i += 1\'',
        { timeoutMs: 60_000 },
      );
      await expect(flood).rejects.toMatchObject({
        reason: "SANDBOX_OUT_OF_MEMORY",
        message: expect.stringMatching(
          /^The run used all of the sandbox's memory \(SANDBOX_MEMORY_MB = 128 MiB\): it created more files or data than fit/,
        ) as unknown,
      });
      // ~60,000 empty files fill 128 MiB; 6 s here. Bounded well below the command's timeout.
      expect(Date.now() - started).toBeLessThan(45_000);
      await expect(sb.listFiles(".")).rejects.toMatchObject({ reason: "SANDBOX_OUT_OF_MEMORY" });
    } finally {
      await sb.destroy();
    }
  }, 90_000);

  describe("counting the workspace before the copy-out", () => {
    let sb: Sandbox;
    beforeAll(async () => {
      sb = await manager().create(runOptions());
      // 3,000 empty files in two folders (one of them like node_modules), and a .git folder
      // of 500 that is not counted.
      const made = await sb.exec(
        "mkdir -p a node_modules/x .git/objects && (cd a && seq 1 1500 | xargs touch) && (cd node_modules/x && seq 1 1500 | xargs touch) && (cd .git/objects && seq 1 500 | xargs touch) && printf 12345 > a/1",
      );
      expect(made.exitCode).toBe(0);
    }, 60_000);
    afterAll(() => sb.destroy());

    it("counts files and bytes under the cap, ignored folders included and .git left out", async () => {
      await expect(checkWorkspaceFiles(sb, 3_000)).resolves.toEqual({ files: 3_000, bytes: 5 });
    });

    it("stops at the cap and names the limit", async () => {
      const started = Date.now();
      await expect(checkWorkspaceFiles(sb, 1_000)).rejects.toMatchObject({
        reason: "WORKSPACE_TOO_MANY_FILES",
        message: expect.stringContaining(
          "The run left more than 1,000 files in /workspace (SANDBOX_WORKSPACE_MAX_FILES = 1,000)",
        ) as unknown,
      });
      expect(Date.now() - started).toBeLessThan(15_000);
    });
  });
});
