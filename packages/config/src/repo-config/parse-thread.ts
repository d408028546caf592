// The worker thread's side of the off-thread reader (off-thread.ts): says it is ready once its
// modules are loaded, then parses each file it is sent and answers with the result. Its own entry point in the
// service bundle (scripts/bundle.mjs: dist/repo-config-parser.mjs).
import { parentPort } from "node:worker_threads";
import { parseRepoConfig, type ParseRepoConfigOptions } from "./parse.ts";

interface Request {
  id: number;
  text: string;
  options: ParseRepoConfigOptions;
}

parentPort?.on("message", (request: Request) => {
  parentPort?.postMessage({
    id: request.id,
    result: parseRepoConfig(request.text, request.options),
  });
});
// Warm up before saying ready (the first parse compiles the schema's validators), so a file's
// deadline never pays for the thread's start.
parseRepoConfig("version: 1\njobs:\n  a:\n    name: A\n    prompt: P\n", {
  limits: { maxTimeoutMinutes: 60, maxTokenBudget: 1000, defaultTimeoutMinutes: 30 },
});
parentPort?.postMessage({ ready: true });
