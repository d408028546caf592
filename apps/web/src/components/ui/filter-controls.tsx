// The controls of the filter bars above paged lists (runs, audit log, webhook deliveries): a
// labelled select with an "any" choice, a text box and a UTC day, all changing on input.
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

/** A day picked in UTC (as every time on these pages), "YYYY-MM-DD" or "". */
export function FilterDay(props: ControlProps) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={props.id} className={LABEL}>
        {props.label} <span className="font-normal text-slate-600">(UTC)</span>
      </label>
      <input
        id={props.id}
        type="date"
        className={CONTROL}
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}
