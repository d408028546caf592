import type { z } from "zod";
import { ConfigError } from "./config-error.ts";
import type { Env } from "./fields.ts";

/** Validates an environment against a service's schema, naming every bad variable at once. */
export function parseEnv<S extends z.ZodObject>(schema: S, env: Env): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => ({
    variable: String(issue.path[0] ?? "(environment)"),
    message: issue.message,
  }));
  throw new ConfigError(problems);
}
