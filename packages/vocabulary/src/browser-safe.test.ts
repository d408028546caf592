// The web app's pages import this package at run time, so it must run in a browser: it imports
// only its own files and zod/mini, and touches no Node global. A Prisma or Node import here would
// end up in the browser bundle (or break the build).
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { expect, it } from "vitest";

const ALLOWED_IMPORT = /^(\.\/[\w-]+\.ts|zod\/mini)$/;
const NODE_GLOBAL = /\b(process|Buffer|require|__dirname|__filename|global)\b\s*[.(]/;

async function sources(): Promise<Array<{ file: string; text: string }>> {
  const names = (await readdir(import.meta.dirname)).filter(
    (f) => f.endsWith(".ts") && !f.endsWith(".test.ts"),
  );
  return Promise.all(
    names.map(async (file) => ({
      file,
      text: await readFile(join(import.meta.dirname, file), "utf8"),
    })),
  );
}

it("imports only its own files and zod/mini, and uses no Node global", async () => {
  const problems: string[] = [];
  for (const { file, text } of await sources()) {
    for (const [, from] of text.matchAll(/\bfrom\s+"([^"]+)"/g)) {
      if (!ALLOWED_IMPORT.test(from!)) problems.push(`${file} imports ${from}`);
    }
    for (const [, dynamic] of text.matchAll(/\bimport\(\s*"([^"]+)"/g)) {
      problems.push(`${file} imports ${dynamic} at run time`);
    }
    const global = NODE_GLOBAL.exec(text);
    if (global) problems.push(`${file} uses ${global[1]}`);
  }
  expect(problems).toEqual([]);
});
