// The built-in tools: shell and file access, all executed inside the run's sandbox through the
// RunSandbox interface. Their argument shapes are simple enough to check by hand, with the same
// strictness the broker applies to plan tools (required fields, types, no unknown fields).
import type { RunSandbox } from "@secondshift/sandbox";

type FieldType = "string" | "boolean" | "integer";

interface BuiltinSpec {
  name: string;
  description: string;
  fields: Record<string, { type: FieldType; description: string; required?: boolean }>;
}

const specs: BuiltinSpec[] = [
  {
    name: "shell",
    description:
      "Run a shell command (sh -c) in the sandbox, in the repository directory unless cwd is given. The sandbox has no network. Returns exit code, stdout and stderr.",
    fields: {
      command: { type: "string", description: "The command line to run.", required: true },
      cwd: { type: "string", description: "Working directory (optional)." },
      timeout_ms: {
        type: "integer",
        description: "Time limit in milliseconds (optional, capped by the run).",
      },
    },
  },
  {
    name: "read_file",
    description: "Read a text file from the sandbox.",
    fields: {
      path: {
        type: "string",
        description: "File path, relative to the repository root.",
        required: true,
      },
    },
  },
  {
    name: "write_file",
    description: "Create or replace a text file in the sandbox with the given content.",
    fields: {
      path: {
        type: "string",
        description: "File path, relative to the repository root.",
        required: true,
      },
      content: { type: "string", description: "The complete new content.", required: true },
    },
  },
  {
    name: "list_files",
    description: "List files under a directory in the sandbox.",
    fields: {
      path: {
        type: "string",
        description: "Directory, relative to the repository root.",
        required: true,
      },
      recursive: { type: "boolean", description: "Include subdirectories (default false)." },
      pattern: { type: "string", description: "Glob that file names must match (optional)." },
    },
  },
  {
    name: "search_files",
    description:
      "Search file contents in the sandbox for a regular expression; returns matching lines with file and line number.",
    fields: {
      pattern: {
        type: "string",
        description: "Regular expression (extended grep syntax).",
        required: true,
      },
      path: {
        type: "string",
        description: "Directory or file to search (default: the repository root).",
      },
    },
  },
];

export const BUILTIN_NAMES: readonly string[] = specs.map((s) => s.name);

export interface ToolSpec {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export function builtinToolSpecs(): ToolSpec[] {
  return specs.map((spec) => ({
    name: spec.name,
    description: spec.description,
    inputSchema: {
      type: "object",
      properties: Object.fromEntries(
        Object.entries(spec.fields).map(([key, f]) => [
          key,
          { type: f.type, description: f.description },
        ]),
      ),
      required: Object.entries(spec.fields)
        .filter(([, f]) => f.required)
        .map(([key]) => key),
      additionalProperties: false,
    },
  }));
}

/** Returns a message describing what is wrong with `args`, or null when they fit the tool. */
export function checkBuiltinArgs(name: string, args: Record<string, unknown>): string | null {
  const spec = specs.find((s) => s.name === name);
  if (!spec) return `Unknown built-in tool.`;
  for (const key of Object.keys(args)) {
    if (!(key in spec.fields)) return `Unexpected argument "${key.slice(0, 40)}" for ${name}.`;
  }
  for (const [key, field] of Object.entries(spec.fields)) {
    const value = args[key];
    if (value === undefined || value === null) {
      if (field.required) return `Missing required argument "${key}" for ${name}.`;
      continue;
    }
    const ok =
      field.type === "integer"
        ? Number.isInteger(value) && (value as number) > 0
        : typeof value === field.type;
    if (!ok)
      return `Argument "${key}" for ${name} must be ${field.type === "integer" ? "a positive integer" : `a ${field.type}`}.`;
  }
  return null;
}

/** Single-quotes a value for sh, so a pattern or path is one word whatever it contains. */
function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** What read_file returns at most; the model gets a cut file rather than a flood. */
const MAX_READ_BYTES = 512 * 1024;

export interface BuiltinContext {
  sandbox: RunSandbox;
  /** The run's signal: passed to every sandbox call, which kills a command in flight. */
  signal: AbortSignal;
  /** Time left for a command: the per-command limit capped by the run's deadline. */
  commandTimeoutMs: () => number;
  maxOutputBytes: number;
}

interface BuiltinOutput {
  text: string;
  isError: boolean;
  truncated: boolean;
}

type Args = Record<string, unknown>;

const str = (args: Args, key: string) => (typeof args[key] === "string" ? args[key] : undefined);

const ok = (text: string): BuiltinOutput => ({ text, isError: false, truncated: false });

async function shell(args: Args, ctx: BuiltinContext): Promise<BuiltinOutput> {
  const requested = typeof args.timeout_ms === "number" ? args.timeout_ms : Infinity;
  const cwd = str(args, "cwd");
  const result = await ctx.sandbox.exec(str(args, "command") ?? "", {
    ...(cwd === undefined ? {} : { cwd }),
    timeoutMs: Math.max(1, Math.min(requested, ctx.commandTimeoutMs())),
    maxOutputBytes: ctx.maxOutputBytes,
    signal: ctx.signal,
  });
  const lines = [`exit code: ${result.exitCode ?? "none (the command was killed)"}`];
  if (result.timedOut) lines.push("[the command hit its time limit and was stopped]");
  if (result.truncated) lines.push("[output was truncated by the sandbox]");
  lines.push("--- stdout ---", result.stdout, "--- stderr ---", result.stderr);
  return {
    text: lines.join("\n"),
    isError: result.exitCode !== 0 || result.timedOut,
    truncated: result.truncated,
  };
}

async function readFile(args: Args, ctx: BuiltinContext): Promise<BuiltinOutput> {
  const content = await ctx.sandbox.readFile(str(args, "path") ?? "", {
    maxBytes: MAX_READ_BYTES,
    signal: ctx.signal,
  });
  return ok(content.toString("utf8"));
}

async function writeFile(args: Args, ctx: BuiltinContext): Promise<BuiltinOutput> {
  const content = str(args, "content") ?? "";
  await ctx.sandbox.writeFile(str(args, "path") ?? "", content, { signal: ctx.signal });
  return ok(`Wrote ${content.length} characters to ${str(args, "path")}.`);
}

async function listFiles(args: Args, ctx: BuiltinContext): Promise<BuiltinOutput> {
  const pattern = str(args, "pattern");
  const files = await ctx.sandbox.listFiles(str(args, "path") ?? ".", {
    ...(typeof args.recursive === "boolean" ? { recursive: args.recursive } : {}),
    ...(pattern === undefined ? {} : { pattern }),
    signal: ctx.signal,
  });
  return ok(files.length ? files.join("\n") : "(no files)");
}

async function searchFiles(args: Args, ctx: BuiltinContext): Promise<BuiltinOutput> {
  const pattern = str(args, "pattern") ?? "";
  const path = str(args, "path") ?? ".";
  if (ctx.sandbox.search)
    return ok(await ctx.sandbox.search(pattern, path, { signal: ctx.signal }));
  // grep exits 1 when nothing matches: that is an answer, not an error.
  const result = await ctx.sandbox.exec(
    `grep -rnE -e ${shellQuote(pattern)} -- ${shellQuote(path)}`,
    {
      timeoutMs: Math.max(1, ctx.commandTimeoutMs()),
      maxOutputBytes: ctx.maxOutputBytes,
      signal: ctx.signal,
    },
  );
  if (result.exitCode === 1 && !result.stdout) return ok("(no matches)");
  const text =
    result.exitCode === 0
      ? result.stdout
      : `grep failed (exit ${result.exitCode}): ${result.stderr}`;
  return { text, isError: result.exitCode !== 0, truncated: result.truncated };
}

const runners: Record<string, (args: Args, ctx: BuiltinContext) => Promise<BuiltinOutput>> = {
  shell,
  read_file: readFile,
  write_file: writeFile,
  list_files: listFiles,
  search_files: searchFiles,
};

/** Runs a built-in tool (arguments already checked) and returns its raw text result. */
export async function runBuiltin(
  name: string,
  args: Args,
  ctx: BuiltinContext,
): Promise<BuiltinOutput> {
  const runner = Object.hasOwn(runners, name) ? runners[name] : undefined;
  return runner
    ? runner(args, ctx)
    : { text: "Unknown built-in tool.", isError: true, truncated: false };
}
