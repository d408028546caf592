// A plain data table. Give it a caption (visible or `sr-only`) so screen readers can name it.
import type { ReactNode, TdHTMLAttributes, ThHTMLAttributes } from "react";

export function Table({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

export function Th({ className = "", ...rest }: ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={`bg-slate-50 px-3 py-2 text-left font-semibold text-slate-700 ${className}`}
      {...rest}
    />
  );
}

export function Td({ className = "", ...rest }: TdHTMLAttributes<HTMLTableCellElement>) {
  return <td className={`px-3 py-2 align-top text-slate-800 ${className}`} {...rest} />;
}

export function Tr({ children }: { children: ReactNode }) {
  return <tr className="border-t border-slate-100">{children}</tr>;
}
