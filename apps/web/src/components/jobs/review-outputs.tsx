// The access review's "Outputs" section (issue #24 phase (a)): per requested kind a grant
// checkbox, "hold for my approval" (default) or "apply automatically", and a limit no higher
// than the request. A request grants nothing: unchecked kinds are not granted.
import type { OutputMode } from "@secondshift/vocabulary";

type Kind = "comment" | "issue";
export type OutputChoice = Partial<Record<Kind, { mode: OutputMode; max: number }>>;

export interface ReviewOutputsData {
  requested: Partial<Record<Kind, { max: number }>>;
  granted: Partial<Record<Kind, { max: number; mode: OutputMode }>>;
  available: boolean;
  unavailableReason: string | null;
  permissions: Partial<Record<Kind, string[]>>;
}

/** The current grant as a choice: only mode and limit (the API refuses any other field). */
export function choiceFromGrant(granted: ReviewOutputsData["granted"]): OutputChoice {
  const choice: OutputChoice = {};
  for (const kind of ["comment", "issue"] as const) {
    const g = granted[kind];
    if (g) choice[kind] = { mode: g.mode, max: g.max };
  }
  return choice;
}

const KIND_WORDS: Record<Kind, string> = {
  comment: "Comments on an issue or pull request",
  issue: "New issues",
};

export function ReviewOutputs({
  outputs,
  choice,
  editable,
  onChange,
}: {
  outputs: ReviewOutputsData;
  choice: OutputChoice;
  editable: boolean;
  onChange: (choice: OutputChoice) => void;
}) {
  const kinds = (Object.keys(KIND_WORDS) as Kind[]).filter((k) => outputs.requested[k]);
  if (kinds.length === 0) return null;
  return (
    <section
      aria-labelledby="outputs-heading"
      className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-800"
    >
      <h3 id="outputs-heading" className="font-semibold text-slate-900">
        Outputs
      </h3>
      {!outputs.available && outputs.unavailableReason ? (
        <p className="mt-2 rounded-md bg-amber-50 p-2 text-amber-900">
          {outputs.unavailableReason}
        </p>
      ) : null}
      <ul className="mt-2 flex flex-col gap-3">
        {kinds.map((kind) => (
          <OutputRow
            key={kind}
            kind={kind}
            requestedMax={outputs.requested[kind]?.max ?? 1}
            granted={outputs.granted[kind]}
            permissions={outputs.permissions[kind] ?? []}
            value={choice[kind]}
            editable={editable && outputs.available}
            onChange={(value) => {
              const next = { ...choice };
              if (value) next[kind] = value;
              else delete next[kind];
              onChange(next);
            }}
          />
        ))}
      </ul>
    </section>
  );
}

function OutputRow(props: {
  kind: Kind;
  requestedMax: number;
  granted: { max: number; mode: OutputMode } | undefined;
  permissions: string[];
  value: { mode: OutputMode; max: number } | undefined;
  editable: boolean;
  onChange: (value: { mode: OutputMode; max: number } | undefined) => void;
}) {
  const { kind, requestedMax, granted, value, editable, onChange } = props;
  const id = `output-${kind}`;
  return (
    <li className="flex flex-col gap-1">
      <label className="flex items-center gap-2">
        <input
          type="checkbox"
          disabled={!editable}
          checked={value !== undefined}
          onChange={(e) =>
            onChange(e.target.checked ? { mode: "hold", max: requestedMax } : undefined)
          }
        />
        {KIND_WORDS[kind]} (requested: at most {requestedMax} per run)
      </label>
      {value ? (
        <div className="ml-6 flex items-center gap-3">
          <select
            aria-label={`${KIND_WORDS[kind]}: mode`}
            value={value.mode}
            onChange={(e) => onChange({ ...value, mode: e.target.value as OutputMode })}
          >
            <option value="hold">Hold for my approval</option>
            <option value="auto">Apply automatically</option>
          </select>
          <label htmlFor={id}>At most</label>
          <input
            id={id}
            type="number"
            min={1}
            max={requestedMax}
            value={value.max}
            className="w-16 rounded border border-slate-300 px-1"
            onChange={(e) =>
              onChange({
                ...value,
                max: Math.min(requestedMax, Math.max(1, Number(e.target.value))),
              })
            }
          />
        </div>
      ) : null}
      <p className="ml-6 text-slate-600">
        The GitHub App needs {props.permissions.join(", ")}.{" "}
        {granted
          ? `Granted now: at most ${granted.max}, ${granted.mode === "auto" ? "applied automatically" : "held for approval"}.`
          : "Not granted now."}
      </p>
    </li>
  );
}
