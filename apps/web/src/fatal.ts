// A startup failure ends the process with the reason on stderr (configuration and key problems
// are written for the operator; they never contain secret values).
export function fatal(error: unknown): never {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
