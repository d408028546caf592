// Text that may hold ANSI colours, rendered as React text in styled spans (never as HTML).
import { hasAnsi, parseAnsi } from "./ansi.ts";

export function AnsiText({ text }: { text: string }) {
  if (!hasAnsi(text)) return <>{text}</>;
  return (
    <>
      {parseAnsi(text).map((segment, i) =>
        segment.className ? (
          <span key={i} className={segment.className}>
            {segment.text}
          </span>
        ) : (
          <span key={i}>{segment.text}</span>
        ),
      )}
    </>
  );
}
