// In-memory SandboxPort, BrokerPort and EventSink that record everything they receive, so a
// test can assert what reached the sandbox or the broker (C28: never the run token).
import type {
  AgentEvent,
  BrokerPort,
  BrokerResult,
  EventSink,
  ExecOptions,
  ExecResult,
  SandboxPort,
} from "../types.ts";

export class FakeSandbox implements SandboxPort {
  readonly files = new Map<string, string>();
  /** Every string the sandbox was given: commands, paths, contents, patterns. */
  readonly received: string[] = [];
  readonly commands: string[] = [];
  execHandler: (command: string, options: ExecOptions) => Promise<ExecResult> | ExecResult = (
    command,
  ) => ({
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
    return this.execHandler(command, options);
  }

  readFile(path: string): Promise<string> {
    this.received.push(path);
    const content = this.files.get(path);
    return content === undefined
      ? Promise.reject(new Error(`No such file: ${path}`))
      : Promise.resolve(content);
  }

  writeFile(path: string, content: string): Promise<void> {
    this.received.push(path, content);
    this.files.set(path, content);
    return Promise.resolve();
  }

  listFiles(
    path: string,
    options: { recursive?: boolean; pattern?: string } = {},
  ): Promise<string[]> {
    this.received.push(path, options.pattern ?? "");
    return Promise.resolve(
      [...this.files.keys()].filter((f) => path === "." || f.startsWith(`${path}/`)),
    );
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
