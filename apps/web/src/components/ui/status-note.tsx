// What an action just changed, said in words (announced politely to screen readers). An empty
// message renders the live region alone, so the next message is announced when it appears.
export function StatusNote({
  message,
  tone = "good",
}: {
  message: string | null;
  tone?: "good" | "bad";
}) {
  const colour = tone === "good" ? "text-green-800" : "text-red-800";
  return (
    <p
      role={tone === "bad" ? "alert" : "status"}
      aria-live="polite"
      className={`text-sm ${colour}`}
    >
      {message ?? ""}
    </p>
  );
}
