// An in-process connector that records every call, for broker ordering tests: a refused call
// must leave `calls` empty.
import type {
  CallOptions,
  ConnectionKind,
  ConnectionSecrets,
  ConnectionTarget,
  Connector,
  ToolResult,
} from "@secondshift/connectors";

export interface RecordedCall {
  target: ConnectionTarget;
  secrets: ConnectionSecrets;
  tool: string;
  args: Record<string, unknown>;
  options: CallOptions;
}

export function fakeConnector(
  kind: ConnectionKind,
  answer: (call: RecordedCall) => Promise<ToolResult> | ToolResult = () => ({
    content: [{ type: "text", text: "ok" }],
    isError: false,
    truncated: false,
  }),
) {
  const calls: RecordedCall[] = [];
  const connector: Connector = {
    kind,
    listTools: () => Promise.resolve([]),
    async callTool(target, secrets, tool, args, options) {
      const call = { target, secrets, tool, args, options };
      calls.push(call);
      return answer(call);
    },
  };
  return { connector, calls };
}
