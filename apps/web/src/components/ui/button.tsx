// The one button. `pending` disables it and says so (for screen readers too).
import type { ButtonHTMLAttributes } from "react";

const tones = {
  primary: "bg-indigo-700 text-white hover:bg-indigo-800 disabled:bg-indigo-400",
  secondary:
    "bg-white text-slate-900 border border-slate-300 hover:bg-slate-50 disabled:text-slate-400",
  danger: "bg-red-700 text-white hover:bg-red-800 disabled:bg-red-400",
} as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  tone?: keyof typeof tones;
  pending?: boolean;
}

export function Button({
  tone = "primary",
  pending = false,
  className = "",
  disabled,
  children,
  type = "button",
  ...rest
}: ButtonProps) {
  return (
    <button
      type={type}
      disabled={disabled || pending}
      aria-busy={pending || undefined}
      className={`inline-flex items-center justify-center gap-2 rounded-md px-3 py-2 text-sm font-medium shadow-sm disabled:cursor-not-allowed ${tones[tone]} ${className}`}
      {...rest}
    >
      {children}
    </button>
  );
}
