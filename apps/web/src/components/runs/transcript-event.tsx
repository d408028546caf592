// One transcript event, by type: model turns, tool calls (a sandbox command as `$ command`)
// with their arguments, tool results (folded, ANSI colours), status changes, errors, the end.
// Each payload has its type's shape (read with the vocabulary's schema in useTranscript); an
// event this version does not know is shown as its JSON. Payloads are untrusted (model and
// tool output): every string is rendered as React text.
import type { ReadTranscriptEvent, TranscriptPayload } from "@secondshift/vocabulary";
import { memo, type ReactNode } from "react";
import { Badge } from "../ui/badge.tsx";
import { FoldedText } from "./folded-text.tsx";
import { formatTokens } from "./format.ts";
import { statusWord } from "./status.ts";
import type { TranscriptEntry } from "./use-transcript.ts";

function json(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? "null";
  } catch {
    return String(value);
  }
}

/** The shell tool's command line, when the call is one. */
function shellCommand(p: TranscriptPayload<"tool_call">): string | null {
  const args = p.arguments as { command?: unknown } | null | undefined;
  return p.name === "shell" && typeof args?.command === "string" ? args.command : null;
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

function ModelTurn({ p }: { p: TranscriptPayload<"model_turn"> }) {
  const tokens = `${formatTokens(p.usage.inputTokens)} in, ${formatTokens(p.usage.outputTokens)} out`;
  return (
    <Row
      kind={`Model turn ${p.turn}`}
      label={<span className="font-normal normal-case">{tokens}</span>}
    >
      {p.text ? <Text>{p.text}</Text> : null}
      {p.toolCalls.length > 0 ? (
        <p className="text-xs text-slate-600">
          Asks for: {p.toolCalls.map((c) => c.name).join(", ")}
        </p>
      ) : null}
    </Row>
  );
}

function ToolCall({ p }: { p: TranscriptPayload<"tool_call"> }) {
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
    <Row kind="Tool call" label={<code className="normal-case">{p.name}</code>}>
      <FoldedText text={json(p.arguments ?? null)} label="the arguments" />
      {p.argumentsError ? <Text>{`Arguments not understood: ${p.argumentsError}`}</Text> : null}
    </Row>
  );
}

function ToolResult({ p }: { p: TranscriptPayload<"tool_result"> }) {
  const label = (
    <>
      <code className="normal-case">{p.name ?? "tool"}</code>
      {p.isError ? <Badge tone="bad">Error</Badge> : <Badge tone="good">OK</Badge>}
      {p.truncated ? <Badge tone="warn">Cut to the limit</Badge> : null}
    </>
  );
  return (
    <Row kind={p.name === "shell" ? "Command output" : "Tool result"} label={label}>
      <FoldedText text={p.content} label="the output" />
    </Row>
  );
}

function Status({ p }: { p: TranscriptPayload<"status"> }) {
  const { word, tone } = statusWord(p.status);
  return (
    <Row
      kind="Status"
      label={
        <>
          <Badge tone={tone}>{word}</Badge>
          {p.cancelRequested ? <Badge tone="warn">Cancel requested</Badge> : null}
        </>
      }
    >
      {p.error ? <Text>{p.error}</Text> : null}
    </Row>
  );
}

function Finished(props: { kind: string; outcome: string; error: string | undefined }) {
  return (
    <Row kind={props.kind} label={null}>
      <Text>{props.outcome}</Text>
      {props.error ? <Text>{props.error}</Text> : null}
    </Row>
  );
}

function Body({ event }: { event: ReadTranscriptEvent }): ReactNode {
  switch (event.type) {
    case "model_turn":
      return <ModelTurn p={event.payload} />;
    case "tool_call":
      return <ToolCall p={event.payload} />;
    case "tool_result":
      return <ToolResult p={event.payload} />;
    case "status":
      return <Status p={event.payload} />;
    case "run_started": {
      const { commit, model } = event.payload;
      return (
        <Row kind="Sandbox ready" label={null}>
          <Text>{`Commit ${commit.slice(0, 12)}, model ${model}`}</Text>
        </Row>
      );
    }
    case "agent_started": {
      const { provider, model, maxTurns } = event.payload;
      return (
        <Row kind="Agent started" label={null}>
          <Text>{`${provider} ${model}, up to ${maxTurns} model turns`}</Text>
        </Row>
      );
    }
    case "final_answer":
      return (
        <Row kind="Final answer" label={null}>
          <Text>{event.payload.summary}</Text>
        </Row>
      );
    case "error":
      return (
        <Row kind="Error" label={<Badge tone="bad">{event.payload.outcome ?? "error"}</Badge>}>
          <Text>{event.payload.message}</Text>
        </Row>
      );
    case "agent_finished":
      return (
        <Finished
          kind="Agent finished"
          outcome={event.payload.outcome}
          error={event.payload.error}
        />
      );
    case "run_finished":
      return (
        <Finished
          kind="Run finished"
          outcome={statusWord(event.payload.status).word}
          error={event.payload.error}
        />
      );
    case "message":
      return (
        <Row kind="Message" label={null}>
          <Text>{event.payload.text}</Text>
        </Row>
      );
    case "other":
      return (
        <Row kind={event.storedType} label={null}>
          <FoldedText text={json(event.payload)} label="the event" />
        </Row>
      );
    default: {
      // A new event type in the vocabulary does not compile until it has its line here.
      const unhandled: never = event;
      return unhandled;
    }
  }
}

export const TranscriptLine = memo(function TranscriptLine({ entry }: { entry: TranscriptEntry }) {
  const { event } = entry;
  return (
    <li
      data-seq={entry.seq}
      data-type={event.type === "other" ? event.storedType : event.type}
      className="border-l-2 border-slate-200 py-2 pl-3"
    >
      <Body event={event} />
    </li>
  );
});
