// ANSI colour codes in command output, parsed into plain segments with class names — never
// into HTML. SGR sequences (ESC [ … m) set colour, bold, italic, underline; every other escape
// sequence (cursor moves, OSC titles and OSC 8 hyperlinks, which could carry any URL) is
// dropped, keeping only the text around it. The text itself is rendered as React text.

export interface AnsiSegment {
  text: string;
  /** Tailwind classes for the segment's style ("" for plain text). */
  className: string;
}

interface Style {
  fg: number | null;
  bg: number | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
}

// Literal class names, so Tailwind finds them in the source. Index: 0–7 normal, 8–15 bright.
const FG = [
  "text-slate-500",
  "text-red-400",
  "text-green-400",
  "text-yellow-300",
  "text-blue-400",
  "text-fuchsia-400",
  "text-cyan-300",
  "text-slate-200",
  "text-slate-400",
  "text-red-300",
  "text-green-300",
  "text-yellow-200",
  "text-blue-300",
  "text-fuchsia-300",
  "text-cyan-200",
  "text-white",
];
const BG = [
  "bg-slate-900",
  "bg-red-900",
  "bg-green-900",
  "bg-yellow-900",
  "bg-blue-900",
  "bg-fuchsia-900",
  "bg-cyan-900",
  "bg-slate-600",
  "bg-slate-700",
  "bg-red-800",
  "bg-green-800",
  "bg-yellow-800",
  "bg-blue-800",
  "bg-fuchsia-800",
  "bg-cyan-800",
  "bg-slate-500",
];

// CSI (ESC [ params final), OSC (ESC ] … BEL or ESC \), other two-byte escapes, and C1 CSI.
const ESCAPE =
  // eslint-disable-next-line no-control-regex -- matching escape sequences is the point
  /\x1b\[([0-9;:?]*)([\x20-\x2f]*[\x40-\x7e])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[\x20-\x7e]?|\x9b[0-9;]*[\x40-\x7e]/g;

const plain = (): Style => ({
  fg: null,
  bg: null,
  bold: false,
  dim: false,
  italic: false,
  underline: false,
});

function classOf(style: Style): string {
  const classes: string[] = [];
  if (style.fg !== null) classes.push(FG[style.fg] ?? "");
  if (style.bg !== null) classes.push(BG[style.bg] ?? "");
  if (style.bold) classes.push("font-bold");
  if (style.dim) classes.push("opacity-70");
  if (style.italic) classes.push("italic");
  if (style.underline) classes.push("underline");
  return classes.filter(Boolean).join(" ");
}

/** 256-colour palette entries 0–15 map to the basic colours; others are left uncoloured. */
function extended(codes: number[], i: number): { colour: number | null; skip: number } {
  if (codes[i + 1] === 5) {
    const n = codes[i + 2] ?? -1;
    return { colour: n >= 0 && n < 16 ? n : null, skip: 2 };
  }
  if (codes[i + 1] === 2) return { colour: null, skip: 4 };
  return { colour: null, skip: 0 };
}

function apply(style: Style, params: string): Style {
  const next = { ...style };
  const codes = params === "" ? [0] : params.split(/[;:]/).map((p) => Number(p || 0));
  for (let i = 0; i < codes.length; i++) {
    const c = codes[i]!;
    if (c === 0) Object.assign(next, plain());
    else if (c === 1) next.bold = true;
    else if (c === 2) next.dim = true;
    else if (c === 3) next.italic = true;
    else if (c === 4) next.underline = true;
    else if (c === 22) next.bold = next.dim = false;
    else if (c === 23) next.italic = false;
    else if (c === 24) next.underline = false;
    else if (c >= 30 && c <= 37) next.fg = c - 30;
    else if (c === 39) next.fg = null;
    else if (c >= 40 && c <= 47) next.bg = c - 40;
    else if (c === 49) next.bg = null;
    else if (c >= 90 && c <= 97) next.fg = c - 90 + 8;
    else if (c >= 100 && c <= 107) next.bg = c - 100 + 8;
    else if (c === 38 || c === 48) {
      const { colour, skip } = extended(codes, i);
      if (c === 38) next.fg = colour;
      else next.bg = colour;
      i += skip;
    }
  }
  return next;
}

export function parseAnsi(input: string): AnsiSegment[] {
  const segments: AnsiSegment[] = [];
  let style = plain();
  let last = 0;
  const push = (text: string) => {
    if (!text) return;
    const className = classOf(style);
    const prev = segments.at(-1);
    if (prev && prev.className === className) prev.text += text;
    else segments.push({ text, className });
  };
  for (const match of input.matchAll(ESCAPE)) {
    push(input.slice(last, match.index));
    last = match.index + match[0].length;
    if (match[2] === "m") style = apply(style, match[1] ?? "");
  }
  push(input.slice(last));
  return segments;
}

/** True when the text has any escape sequence (worth parsing at all). */
export function hasAnsi(text: string): boolean {
  return text.includes("\x1b") || text.includes("\x9b");
}
