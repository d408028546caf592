// A row saved before owner URLs were checked at save, whose URL the outbound policy now refuses:
// the API's words (the rule and the remedy), with a badge that says it. Nothing when none.
import { Badge } from "./badge.tsx";

export function AddressProblem({ problem }: { problem: string | null }) {
  if (problem === null) return null;
  return (
    <p className="mt-1 text-xs text-red-800">
      <Badge tone="bad">Address not allowed</Badge> {problem}
    </p>
  );
}
