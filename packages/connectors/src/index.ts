export type {
  CallOptions,
  CallScope,
  ConnectionKind,
  ConnectionSecrets,
  ConnectionTarget,
  Connector,
  JsonSchema,
  ToolDescriptor,
  ToolResult,
  ToolResultContent,
} from "./types.ts";
