// Caps a tool result by UTF-8 bytes across all its text parts, cutting on a character boundary.
import type { ToolResultContent } from "@secondshift/connectors";

export function capResult(
  content: ToolResultContent[],
  maxBytes: number,
): { content: ToolResultContent[]; truncated: boolean } {
  let budget = maxBytes;
  const out: ToolResultContent[] = [];
  for (const part of content) {
    const bytes = Buffer.byteLength(part.text, "utf8");
    if (bytes <= budget) {
      out.push({ type: "text", text: part.text });
      budget -= bytes;
      continue;
    }
    const cut = Buffer.from(part.text, "utf8")
      .subarray(0, budget)
      .toString("utf8")
      .replace(/\uFFFD$/, "");
    if (cut) out.push({ type: "text", text: cut });
    return { content: out, truncated: true };
  }
  return { content: out, truncated: false };
}
