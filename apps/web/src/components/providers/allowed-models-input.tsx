// The allowed-models list: one model per line or comma separated; empty allows any model.
import { useId } from "react";
import { Label } from "../ui/field.tsx";

type Props =
  | { name: string; value?: undefined; onChange?: undefined; error?: string | null }
  | { name?: undefined; value: string; onChange: (value: string) => void; error?: string | null };

export function AllowedModelsInput(props: Props) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <Label htmlFor={id}>Allowed models</Label>
      <textarea
        id={id}
        name={props.name}
        rows={3}
        value={props.value}
        onChange={props.onChange ? (event) => props.onChange?.(event.target.value) : undefined}
        aria-describedby={`${id}-hint`}
        aria-invalid={props.error ? true : undefined}
        className="rounded-md border border-slate-300 px-3 py-2 text-sm"
      />
      <p id={`${id}-hint`} className="text-xs text-slate-600">
        One per line or comma separated. Leave empty to allow any model.
      </p>
      {props.error ? <p className="text-xs text-red-700">{props.error}</p> : null}
    </div>
  );
}
