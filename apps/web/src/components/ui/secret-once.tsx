"use client";
// A secret the API returns exactly once (an invitation link, a webhook signing secret): shown
// in a read-only box with a copy button and a plain warning that it will not be shown again.
// Keep it in component state only — never in the URL, the query cache or storage.
import { useId, useState } from "react";
import { Button } from "./button.tsx";

export function SecretOnce({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState(false);
  return (
    <div className="rounded-lg border border-amber-300 bg-amber-50 p-4">
      <label htmlFor={id} className="text-sm font-semibold text-amber-950">
        {label}
      </label>
      <p className="mt-1 text-xs text-amber-900">
        Shown once: copy it now. It is not stored in a readable form and cannot be shown again.
      </p>
      <div className="mt-2 flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="min-w-0 flex-1 rounded-md border border-amber-300 bg-white px-3 py-2 font-mono text-xs"
        />
        <Button
          tone="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(value).then(() => setCopied(true));
          }}
        >
          {copied ? "Copied" : "Copy"}
        </Button>
      </div>
    </div>
  );
}
