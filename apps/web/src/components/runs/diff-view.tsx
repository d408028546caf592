// The run's diff artifact as text, lines coloured by their first character (+ added, - removed,
// @@ hunk); the word "added"/"removed" is in each line's own +/- sign, colour only helps.
const lineClass = (line: string): string => {
  if (line.startsWith("+++") || line.startsWith("---")) return "text-slate-300 font-semibold";
  if (line.startsWith("+")) return "bg-green-950 text-green-200";
  if (line.startsWith("-")) return "bg-red-950 text-red-200";
  if (line.startsWith("@@")) return "text-cyan-300";
  if (line.startsWith("diff ")) return "text-slate-100 font-semibold";
  return "text-slate-300";
};

export function DiffView({ text }: { text: string }) {
  return (
    <pre
      tabIndex={0}
      aria-label="Diff"
      className="max-h-[40rem] overflow-auto rounded-md bg-slate-900 p-3 font-mono text-xs"
    >
      {text.split("\n").map((line, i) => (
        <span key={i} className={`block whitespace-pre ${lineClass(line)}`}>
          {line || " "}
        </span>
      ))}
    </pre>
  );
}
