// One transcript event, by type: model turns, tool calls (a sandbox command as `$ command`)
// with their arguments, tool results (folded, ANSI colours), status changes, errors, the end.
// Payloads are untrusted (model and tool output): every string is rendered as React text.
import { memo, type ReactNode } from "react";
import { Badge } from "../ui/badge.tsx";
import { FoldedText } from "./folded-text.tsx";
import { formatTokens } from "./format.ts";
import { statusWord } from "./status.ts";
import type { TranscriptEvent } from "./use-transcript.ts";

type Payload = Record<string, unknown>;

const str = (value: unknown): string | null => (typeof value === "string" ? value : null);
const num = (value: unknown): number | null => (typeof value === "number" ? value : null);

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "null";
  } catch {
    return String(value);
  }
}

/** The shell tool's command line, when the call is one. */
function shellCommand(p: Payload): string | null {
  const args = p.arguments as Payload | null | undefined;
  return p.name === "shell" && args && typeof args.command === "string" ? args.command : null;
}

function Row(props: { kind: string; label: ReactNode; children?: ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <div className="flex flex-wrap items-center gap-2 text-xs font-semibold text-slate-600 uppercase">
        <span>{props.kind}</span>
        {props.label}
      </div>
      {props.children}
    </div>
  );
}

function Text({ children }: { children: string }) {
  return <p className="text-sm whitespace-pre-wrap break-words text-slate-900">{children}</p>;
}

function ModelTurn({ p }: { p: Payload }) {
  const calls = Array.isArray(p.toolCalls) ? (p.toolCalls as Payload[]) : [];
  const usage = (p.usage ?? {}) as Payload;
  const tokens =
    num(usage.inputTokens) !== null
      ? `${formatTokens(num(usage.inputTokens) ?? 0)} in, ${formatTokens(num(usage.outputTokens) ?? 0)} out`
      : null;
  return (
    <Row
      kind={`Model turn ${num(p.turn) ?? ""}`}
      label={tokens ? <span className="font-normal normal-case">{tokens}</span> : null}
    >
      {str(p.text) ? <Text>{str(p.text)!}</Text> : null}
      {calls.length > 0 ? (
        <p className="text-xs text-slate-600">
          Asks for: {calls.map((c) => str(c.name) ?? "a tool").join(", ")}
        </p>
      ) : null}
    </Row>
  );
}

function ToolCall({ p }: { p: Payload }) {
  const command = shellCommand(p);
  if (command !== null) {
    return (
      <Row kind="Sandbox command" label={null}>
        <pre className="rounded-md bg-slate-800 p-2 font-mono text-xs whitespace-pre-wrap break-words text-green-200">
          {`$ ${command}`}
        </pre>
      </Row>
    );
  }
  return (
    <Row kind="Tool call" label={<code className="normal-case">{str(p.name) ?? "unknown"}</code>}>
      <FoldedText text={json(p.arguments ?? null)} label="the arguments" />
      {str(p.argumentsError) ? (
        <Text>{`Arguments not understood: ${str(p.argumentsError)}`}</Text>
      ) : null}
    </Row>
  );
}

function ToolResult({ p }: { p: Payload }) {
  const label = (
    <>
      <code className="normal-case">{str(p.name) ?? "tool"}</code>
      {p.isError === true ? <Badge tone="bad">Error</Badge> : <Badge tone="good">OK</Badge>}
      {p.truncated === true ? <Badge tone="warn">Cut to the limit</Badge> : null}
    </>
  );
  return (
    <Row kind={p.name === "shell" ? "Command output" : "Tool result"} label={label}>
      <FoldedText text={str(p.content) ?? json(p.content)} label="the output" />
    </Row>
  );
}

function Status({ p }: { p: Payload }) {
  const status = str(p.status) ?? "unknown";
  return (
    <Row
      kind="Status"
      label={
        <>
          <Badge tone={statusWord(status).tone}>{statusWord(status).word}</Badge>
          {p.cancelRequested === true ? <Badge tone="warn">Cancel requested</Badge> : null}
        </>
      }
    >
      {str(p.error) ? <Text>{str(p.error)!}</Text> : null}
    </Row>
  );
}

function Body({ event }: { event: TranscriptEvent }) {
  const p = (event.payload ?? {}) as Payload;
  switch (event.type) {
    case "model_turn":
      return <ModelTurn p={p} />;
    case "tool_call":
      return <ToolCall p={p} />;
    case "tool_result":
      return <ToolResult p={p} />;
    case "status":
      return <Status p={p} />;
    case "run_started":
      return (
        <Row kind="Sandbox ready" label={null}>
          <Text>{`Commit ${(str(p.commit) ?? "unknown").slice(0, 12)}, model ${str(p.model) ?? "unknown"}`}</Text>
        </Row>
      );
    case "agent_started":
      return (
        <Row kind="Agent started" label={null}>
          <Text>{`${str(p.provider) ?? ""} ${str(p.model) ?? ""}, up to ${num(p.maxTurns) ?? "?"} model turns`}</Text>
        </Row>
      );
    case "final_answer":
      return (
        <Row kind="Final answer" label={null}>
          <Text>{str(p.summary) ?? ""}</Text>
        </Row>
      );
    case "error":
      return (
        <Row kind="Error" label={<Badge tone="bad">{str(p.outcome) ?? "error"}</Badge>}>
          <Text>{str(p.message) ?? json(p)}</Text>
        </Row>
      );
    case "agent_finished":
    case "run_finished":
      return (
        <Row
          kind={event.type === "agent_finished" ? "Agent finished" : "Run finished"}
          label={null}
        >
          <Text>{str(p.outcome) ?? str(p.status) ?? ""}</Text>
          {str(p.error) ? <Text>{str(p.error)!}</Text> : null}
        </Row>
      );
    case "message":
      return (
        <Row kind="Message" label={null}>
          <Text>{str(p.text) ?? json(p)}</Text>
        </Row>
      );
    default:
      return (
        <Row kind={event.type} label={null}>
          <FoldedText text={json(p)} label="the event" />
        </Row>
      );
  }
}

export const TranscriptLine = memo(function TranscriptLine({ event }: { event: TranscriptEvent }) {
  return (
    <li
      data-seq={event.seq}
      data-type={event.type}
      className="border-l-2 border-slate-200 py-2 pl-3"
    >
      <Body event={event} />
    </li>
  );
});
