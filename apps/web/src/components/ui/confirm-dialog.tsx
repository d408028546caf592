"use client";
// Asks before an action that changes something, and says what will change. A native <dialog>
// (modal: focus moves in, Escape cancels, the page behind is inert).
import { useEffect, useId, useRef, type ReactNode } from "react";
import { Button } from "./button.tsx";

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  tone?: "primary" | "danger";
  pending?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
      className="m-auto max-w-md rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
    >
      <div className="p-5">
        <h2 id={titleId} className="text-base font-semibold text-slate-900">
          {props.title}
        </h2>
        <div className="mt-2 text-sm text-slate-700">{props.children}</div>
        <div className="mt-5 flex justify-end gap-2">
          <Button tone="secondary" onClick={props.onCancel}>
            Cancel
          </Button>
          <Button
            tone={props.tone ?? "primary"}
            pending={props.pending ?? false}
            onClick={props.onConfirm}
          >
            {props.confirmLabel}
          </Button>
        </div>
      </div>
    </dialog>
  );
}
