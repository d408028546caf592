// A run's status as a badge (the word says it; the colour only helps).
import { Badge } from "../ui/badge.tsx";
import { statusWord } from "./status.ts";

export function RunStatusBadge({ status }: { status: string }) {
  const { word, tone } = statusWord(status);
  return <Badge tone={tone}>{word}</Badge>;
}
