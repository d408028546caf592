// The controls of the filter bars above paged lists (runs, audit log, webhook deliveries): a
// labelled select with an "any" choice, a text box and a UTC day, all changing on input.
import { isUtcDay } from "./utc-day.ts";

const CONTROL = "rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm";
const LABEL = "text-sm font-medium text-slate-800";

interface ControlProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
}

export function FilterSelect(
  props: ControlProps & {
    /** The empty choice, e.g. "Any status". */
    anyLabel: string;
    options: ReadonlyArray<{ value: string; label: string }>;
  },
) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={props.id} className={LABEL}>
        {props.label}
      </label>
      <select
        id={props.id}
        className={CONTROL}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      >
        <option value="">{props.anyLabel}</option>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

export function FilterText(props: ControlProps & { placeholder?: string }) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={props.id} className={LABEL}>
        {props.label}
      </label>
      <input
        id={props.id}
        className={CONTROL}
        {...(props.placeholder ? { placeholder: props.placeholder } : {})}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

/**
 * A UTC day typed as "YYYY-MM-DD" (a date picker would show the browser's locale order,
 * 12/02/2026, which reads two ways). A value that is not a whole day yet filters nothing and
 * says so.
 */
export function FilterDay(props: ControlProps) {
  const incomplete = props.value !== "" && !isUtcDay(props.value);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={props.id} className={LABEL}>
        {props.label} <span className="font-normal text-slate-600">(UTC)</span>
      </label>
      <input
        id={props.id}
        className={`${CONTROL} w-36 font-mono`}
        inputMode="numeric"
        placeholder="YYYY-MM-DD"
        maxLength={10}
        aria-invalid={incomplete}
        aria-describedby={`${props.id}-format`}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value.trim())}
      />
      <span id={`${props.id}-format`} className="text-xs text-slate-600">
        {incomplete ? "Not a day yet: YYYY-MM-DD" : "YYYY-MM-DD"}
      </span>
    </div>
  );
}
