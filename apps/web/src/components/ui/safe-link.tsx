// A link to an address that came from a user, a repository or a tool: only http(s) addresses
// become links (no javascript:, data:, vbscript:…); anything else is shown as plain text.
// External links open without passing our page (noopener) or its address (noreferrer).
import type { ReactNode } from "react";

export function safeHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.toString() : null;
  } catch {
    return null;
  }
}

export function SafeLink({ href, children }: { href: string; children?: ReactNode }) {
  const safe = safeHref(href);
  if (!safe) return <span className="break-all">{children ?? href}</span>;
  return (
    <a
      href={safe}
      target="_blank"
      rel="noopener noreferrer"
      className="break-all text-indigo-700 underline"
    >
      {children ?? href}
    </a>
  );
}
