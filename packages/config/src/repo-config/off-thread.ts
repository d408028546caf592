// Reads `.secondshift.yaml` in a worker thread, so a hostile file never holds the event loop
// that runs tool calls and model streams (issue #21 item 6), and with a deadline: a file that
// takes longer is answered with one error, its thread stopped and a fresh one started for the
// next file. One thread, one file at a time (syncs are rare; a queue of them waits its turn).
// The deadline counts from the thread being ready, so a cold start is not charged to a file.
//
// The thread's script: parse-thread.ts beside this file when running from sources (started
// with tsx's loader), repo-config-parser.mjs beside the bundle when bundled (the bundle's
// import.meta.url is the bundle's own file in dist/).
import { Worker } from "node:worker_threads";
import type { ParseRepoConfigOptions } from "./parse.ts";
import { REPO_CONFIG_FILE } from "./schema.ts";
import type { ParseRepoConfigResult } from "./types.ts";

export interface ConfigReaderOptions {
  /** How long one file may take once the thread is ready; past it the file is refused. */
  deadlineMs: number;
  /** Heap cap of the thread, MiB (a file that needs more is refused, the process unharmed). */
  maxHeapMb?: number;
}

export interface ConfigReader {
  parse(text: string, options: ParseRepoConfigOptions): Promise<ParseRepoConfigResult>;
  close(): Promise<void>;
}

type Reply = { ready: true } | { id: number; result: ParseRepoConfigResult };

interface Thread {
  worker: Worker;
  ready: Promise<void>;
}

function threadScript(): { url: URL; execArgv: string[] } {
  if (import.meta.url.endsWith(".ts")) {
    return { url: new URL("./parse-thread.ts", import.meta.url), execArgv: ["--import", "tsx"] };
  }
  return { url: new URL("./repo-config-parser.mjs", import.meta.url), execArgv: [] };
}

function refused(options: ParseRepoConfigOptions, message: string): ParseRepoConfigResult {
  const file = options.file ?? REPO_CONFIG_FILE;
  const error = { file, line: 1, column: 1, path: "", message: `${file}: ${message}` };
  return { ok: false, errors: [error] };
}

function startThread(maxHeapMb: number): Thread {
  const { url, execArgv } = threadScript();
  const worker = new Worker(url, {
    execArgv,
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb },
  });
  worker.unref(); // an idle reader never keeps the process alive
  const ready = new Promise<void>((resolve, reject) => {
    const onReply = (reply: Reply) => {
      if (!("ready" in reply)) return;
      worker.off("message", onReply).off("error", reject);
      resolve();
    };
    worker.on("message", onReply).once("error", reject);
  });
  return { worker, ready };
}

/** Sends one file to a ready thread; settles with its result, or a refusal at the deadline. */
function askThread(
  worker: Worker,
  request: { id: number; text: string; options: ParseRepoConfigOptions },
  deadlineMs: number,
): Promise<ParseRepoConfigResult | "deadline"> {
  return new Promise((resolve, reject) => {
    const settle = (outcome: ParseRepoConfigResult | "deadline" | Error) => {
      clearTimeout(timer);
      worker.off("message", onReply).off("error", settle);
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    const onReply = (reply: Reply) => {
      if ("id" in reply && reply.id === request.id) settle(reply.result);
    };
    const timer = setTimeout(() => settle("deadline"), deadlineMs);
    worker.on("message", onReply).on("error", settle);
    worker.postMessage(request);
  });
}

function outOfMemory(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "ERR_WORKER_OUT_OF_MEMORY";
}

export function createConfigReader(readerOptions: ConfigReaderOptions): ConfigReader {
  const { deadlineMs, maxHeapMb = 256 } = readerOptions;
  let thread: Thread | null = null;
  let nextId = 0;
  let queue: Promise<unknown> = Promise.resolve();

  function stop(current: Thread): void {
    if (thread === current) thread = null;
    void current.worker.terminate();
  }

  async function parseOne(text: string, options: ParseRepoConfigOptions) {
    const current = (thread ??= startThread(maxHeapMb));
    try {
      await current.ready;
      const outcome = await askThread(current.worker, { id: nextId++, text, options }, deadlineMs);
      if (outcome !== "deadline") return outcome;
      stop(current);
      return refused(options, `reading the file took longer than ${deadlineMs} ms; simplify it`);
    } catch (error) {
      stop(current);
      if (outOfMemory(error))
        return refused(options, "reading the file needs too much memory; simplify it");
      throw error;
    }
  }

  return {
    parse(text, options) {
      const result = queue.then(() => parseOne(text, options));
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      const current = thread;
      thread = null;
      await current?.worker.terminate();
    },
  };
}
