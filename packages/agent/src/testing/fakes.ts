// In-memory RunSandbox, BrokerPort and EventSink that record everything they receive, so a
// test can assert what reached the sandbox or the broker (C28: never the run token). The fake
// sandbox implements the same RunSandbox interface as the real one (packages/sandbox).
import type { Readable } from "node:stream";
import type {
  ExecOptions,
  ExecResult,
  FileOptions,
  ListFilesOptions,
  RunSandbox,
} from "@secondshift/sandbox";
import type { AgentEvent, BrokerPort, BrokerResult, EventSink } from "../types.ts";

/** A scripted command result; the fields a real sandbox reports only in rare cases are optional. */
export type FakeExecResult = Omit<ExecResult, "aborted"> & Partial<Pick<ExecResult, "aborted">>;

export class FakeSandbox implements RunSandbox {
  readonly files = new Map<string, string>();
  /** Every string the sandbox was given: commands, paths, contents, patterns. */
  readonly received: string[] = [];
  readonly commands: string[] = [];
  /** The signal of every call, in order: the run's signal must reach each one. */
  readonly signals: Array<AbortSignal | undefined> = [];
  destroyed = false;
  execHandler: (command: string, options: ExecOptions) => Promise<FakeExecResult> | FakeExecResult =
    (command) => ({
      exitCode: 0,
      stdout: `ran: ${command}`,
      stderr: "",
      truncated: false,
      timedOut: false,
    });

  constructor(files: Record<string, string> = {}) {
    for (const [path, content] of Object.entries(files)) this.files.set(path, content);
  }

  async exec(command: string, options: ExecOptions = {}): Promise<ExecResult> {
    this.received.push(command, options.cwd ?? "");
    this.commands.push(command);
    this.signals.push(options.signal);
    return { aborted: false, ...(await this.execHandler(command, options)) };
  }

  readFile(path: string, options: FileOptions = {}): Promise<Buffer> {
    this.received.push(path);
    this.signals.push(options.signal);
    const content = this.files.get(path);
    return content === undefined
      ? Promise.reject(new Error(`No such file: ${path}`))
      : Promise.resolve(Buffer.from(content));
  }

  writeFile(path: string, content: string | Buffer, options: FileOptions = {}): Promise<void> {
    this.received.push(path, content.toString());
    this.signals.push(options.signal);
    this.files.set(path, content.toString());
    return Promise.resolve();
  }

  listFiles(path: string, options: ListFilesOptions = {}): Promise<string[]> {
    this.received.push(path, options.pattern ?? "");
    this.signals.push(options.signal);
    return Promise.resolve(
      [...this.files.keys()].filter((f) => path === "." || f.startsWith(`${path}/`)),
    );
  }

  async copyInArchive(archive: Readable): Promise<void> {
    for await (const chunk of archive) this.received.push(String(chunk));
  }

  destroy(): Promise<void> {
    this.destroyed = true;
    return Promise.resolve();
  }

  /** Everything received, as one string to search for planted values. */
  text(): string {
    return this.received.join("\n");
  }
}

export class FakeBroker implements BrokerPort {
  readonly calls: Array<{
    toolName: string;
    args: Record<string, unknown>;
    connectionId: string | undefined;
  }> = [];
  handler: (
    toolName: string,
    args: Record<string, unknown>,
  ) => Promise<BrokerResult> | BrokerResult = (toolName) => ({
    content: [{ type: "text", text: `result of ${toolName}` }],
    isError: false,
    truncated: false,
  });

  async call(
    toolName: string,
    args: Record<string, unknown>,
    context?: { connectionId: string },
  ): Promise<BrokerResult> {
    this.calls.push({ toolName, args, connectionId: context?.connectionId });
    return this.handler(toolName, args);
  }
}

export class MemorySink implements EventSink {
  readonly events: AgentEvent[] = [];

  append(event: AgentEvent): void {
    this.events.push(event);
  }

  types(): string[] {
    return this.events.map((e) => e.type);
  }

  text(): string {
    return JSON.stringify(this.events);
  }
}
