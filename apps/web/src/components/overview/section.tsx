// One panel of the overview: a heading, a count, and what needs attention (or why nothing).
import type { ReactNode } from "react";

export function OverviewSection(props: {
  id: string;
  title: string;
  count: number;
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby={props.id}
      className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id={props.id} className="flex items-center gap-2 text-base font-semibold">
        {props.title}
        <span className="rounded-full bg-slate-100 px-2 text-sm font-medium text-slate-700">
          {props.count}
        </span>
      </h2>
      {props.children}
    </section>
  );
}

export function Quiet({ children }: { children: ReactNode }) {
  return <p className="text-sm text-slate-600">{children}</p>;
}
