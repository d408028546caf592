// Results that leave a run (issue #24): proposals recorded through the broker's platform tools,
// checked at finalize (limits, secrets, protected paths), and applied to GitHub after the run.
export * from "./apply/index.ts";
