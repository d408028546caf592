import { AppError } from "@secondshift/errors";

/** A service's environment is unusable. The message names every bad variable and the fix. */
export class ConfigError extends AppError {
  readonly variables: string[];

  constructor(problems: Array<{ variable: string; message: string }>) {
    super(
      "INTERNAL",
      [
        "The service cannot start: its configuration is invalid.",
        ...problems.map((p) => `  - ${p.variable}: ${p.message}`),
      ].join("\n"),
      { reason: "CONFIG_INVALID" },
    );
    this.name = "ConfigError";
    this.variables = problems.map((p) => p.variable);
  }
}
