// A run's status as a badge (the word says it; the colour only helps).
import type { RunStatus } from "@secondshift/vocabulary";
import { Badge } from "../ui/badge.tsx";
import { statusWord } from "./status.ts";

export function RunStatusBadge({ status }: { status: RunStatus }) {
  const { word, tone } = statusWord(status);
  return <Badge tone={tone}>{word}</Badge>;
}
