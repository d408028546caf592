// One transcript event, by type: model turns, tool calls (a sandbox command as `$ command`)
// with their arguments, tool results (folded, ANSI colours; the untrusted-data block the model
// saw is shown as its content with the source as a label), status changes, errors, the end.
// A text the page already shows (the final answer, a failure's error: conversation.ts) is
// replaced by a note saying where it is.
// Each payload has its type's shape (read with the vocabulary's schema in useTranscript); an
// event this version does not know is shown as its JSON. Payloads are untrusted (model and
// tool output): every string is rendered as React text.
import {
  readUntrustedBlock,
  type ReadTranscriptEvent,
  type TranscriptPayload,
} from "@secondshift/vocabulary";
import { memo, type ReactNode, type Ref } from "react";
import { Badge } from "../ui/badge.tsx";
import type { Repeat } from "./conversation.ts";
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

const REPEAT_NOTES: Record<Repeat, string> = {
  result: "The final answer, shown under Result in the run summary.",
  error: "The error, shown in the run summary.",
  earlier: "Same text as an earlier line.",
};

/** The event's text, or where the page already shows it. */
function Said({ text, repeats }: { text: string; repeats: Repeat | null }) {
  if (repeats === null) return <Text>{text}</Text>;
  return <p className="text-xs text-slate-600 italic">{REPEAT_NOTES[repeats]}</p>;
}

function ModelTurn({ p, repeats }: { p: TranscriptPayload<"model_turn">; repeats: Repeat | null }) {
  const tokens = `${formatTokens(p.usage.inputTokens)} in, ${formatTokens(p.usage.outputTokens)} out`;
  return (
    <Row
      kind={`Model turn ${p.turn}`}
      label={<span className="font-normal normal-case">{tokens}</span>}
    >
      {p.text ? <Said text={p.text} repeats={repeats} /> : null}
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
  // What the model saw is wrapped as untrusted data; people read the content and its source.
  const block = readUntrustedBlock(p.content);
  const label = (
    <>
      <code className="normal-case">{p.name ?? "tool"}</code>
      {block ? (
        <span className="font-normal normal-case">{`untrusted output of ${block.source}`}</span>
      ) : null}
      {p.isError ? <Badge tone="bad">Error</Badge> : <Badge tone="good">OK</Badge>}
      {p.truncated ? <Badge tone="warn">Cut to the limit</Badge> : null}
    </>
  );
  return (
    <Row kind={p.name === "shell" ? "Command output" : "Tool result"} label={label}>
      <FoldedText text={block ? block.content : p.content} label="the output" />
    </Row>
  );
}

function Status({ p, repeats }: { p: TranscriptPayload<"status">; repeats: Repeat | null }) {
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
      {p.error ? <Said text={p.error} repeats={repeats} /> : null}
    </Row>
  );
}

function Finished(props: {
  kind: string;
  outcome: string;
  error: string | undefined;
  repeats: Repeat | null;
}) {
  return (
    <Row kind={props.kind} label={null}>
      <Text>{props.outcome}</Text>
      {props.error ? <Said text={props.error} repeats={props.repeats} /> : null}
    </Row>
  );
}

function Body({ event, repeats }: { event: ReadTranscriptEvent; repeats: Repeat | null }) {
  switch (event.type) {
    case "model_turn":
      return <ModelTurn p={event.payload} repeats={repeats} />;
    case "tool_call":
      return <ToolCall p={event.payload} />;
    case "tool_result":
      return <ToolResult p={event.payload} />;
    case "status":
      return <Status p={event.payload} repeats={repeats} />;
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
          <Said text={event.payload.summary} repeats={repeats} />
        </Row>
      );
    case "error":
      return (
        <Row kind="Error" label={<Badge tone="bad">{event.payload.outcome ?? "error"}</Badge>}>
          <Said text={event.payload.message} repeats={repeats} />
        </Row>
      );
    case "agent_finished":
      return (
        <Finished
          kind="Agent finished"
          outcome={event.payload.outcome}
          error={event.payload.error}
          repeats={repeats}
        />
      );
    case "run_finished":
      return (
        <Finished
          kind="Run finished"
          outcome={statusWord(event.payload.status).word}
          error={event.payload.error}
          repeats={repeats}
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

/**
 * One line of the list. `index` and `measureRef` are the virtual list's: it measures each
 * rendered line's height (lines differ: folded output, long model text).
 */
export const TranscriptLine = memo(function TranscriptLine(props: {
  entry: TranscriptEntry;
  repeats: Repeat | null;
  index?: number;
  measureRef?: Ref<HTMLLIElement>;
  /** Placed by the virtual list (absolute, its offset written by the virtualizer). */
  positioned?: boolean;
}) {
  const { event } = props.entry;
  return (
    <li
      ref={props.measureRef}
      data-index={props.index}
      data-seq={props.entry.seq}
      data-type={event.type === "other" ? event.storedType : event.type}
      className={`${props.positioned ? "absolute top-0 left-0 w-full " : ""}border-l-2 border-slate-200 py-2 pl-3`}
    >
      <Body event={event} repeats={props.repeats} />
    </li>
  );
});
