// Where sign-in sends the user afterwards (`/sign-in?next=…`). Only a path on this site is
// followed: `//host`, `/\host` and absolute URLs would make the sign-in page an open redirect.
const MAX_LENGTH = 1024;

export function safeNextPath(next: string | undefined | null): string | null {
  if (!next || next.length > MAX_LENGTH) return null;
  if (!next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return null;
  // Control characters (URL parsers drop tabs and newlines) or a backslash (read as a slash)
  // could hide a second slash.
  for (const char of next) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f || char === "\\") return null;
  }
  return next;
}

export const signInPath = (next: string) => `/sign-in?next=${encodeURIComponent(next)}`;
