// Building blocks for the per-service environment schemas. Every secret is required and has no
// default; every message says what a valid value looks like.
import { isIP } from "node:net";
import { homedir, tmpdir } from "node:os";
import { isAbsolute, resolve, sep } from "node:path";
import { decodeKey, generateKeyHint } from "@secondshift/crypto";
import { z } from "zod";

export type Env = Record<string, string | undefined>;

const required = (hint: string) => ({
  error: (issue: { input: unknown }) =>
    issue.input === undefined ? `is missing; ${hint}` : `is invalid; ${hint}`,
});

export const deploymentMode = z
  .enum(
    ["production", "development", "test"],
    required('set it to "production", "development" or "test" (default: production)'),
  )
  .default("production");

export const logLevel = z
  .enum(
    ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
    required("use one of fatal, error, warn, info, debug, trace, silent"),
  )
  .default("info");

export function urlWithScheme(schemes: string[], example: string) {
  return z.string(required(`set it to a URL such as ${example}`)).refine(
    (value) => {
      try {
        return schemes.includes(new URL(value).protocol.replace(/:$/, ""));
      } catch {
        return false;
      }
    },
    { message: `must be a ${schemes.join(" or ")} URL such as ${example}` },
  );
}

export const databaseUrl = urlWithScheme(
  ["postgres", "postgresql"],
  "postgresql://secondshift:PASSWORD@postgres:5432/secondshift",
);
export const redisUrl = urlWithScheme(["redis", "rediss"], "redis://redis:6379");

export function encryptionKey(variable: string) {
  return z
    .string(required(`set it to 32 random bytes in base64. ${generateKeyHint}`))
    .transform((value, ctx) => {
      try {
        return decodeKey(value, variable);
      } catch (error) {
        ctx.addIssue({
          code: "custom",
          message: (error as Error).message.replace(`${variable} `, ""),
        });
        return z.NEVER;
      }
    });
}

export function previousEncryptionKeys(variable: string) {
  return z
    .string()
    .optional()
    .transform((value, ctx) => {
      const parts = (value ?? "")
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean);
      try {
        return parts.map((p, i) => decodeKey(p, `${variable} entry ${i + 1}`));
      } catch (error) {
        ctx.addIssue({
          code: "custom",
          message: `${(error as Error).message} Separate several keys with commas.`,
        });
        return z.NEVER;
      }
    });
}

export const commaList = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean),
  );

/** A comma-separated list of CIDR ranges (IPv4 or IPv6), e.g. `10.0.0.0/8,::1/128`. */
export const cidrList = commaList.superRefine((ranges, ctx) => {
  for (const range of ranges) {
    const [address = "", bits = ""] = range.split("/");
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    if (family === 0 || !/^\d{1,3}$/.test(bits) || Number(bits) > max) {
      ctx.addIssue({
        code: "custom",
        message: `"${range}" is not a CIDR range (write e.g. 10.0.0.0/8 or ::1/128)`,
      });
    }
  }
});

export function port(defaultPort: number) {
  return z.coerce
    .number({ error: "must be a port number between 1 and 65535" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 65535")
    .max(65535, "must be between 1 and 65535")
    .default(defaultPort);
}

/** A port that may be left out (unset or empty): the feature it serves is then off. */
export const optionalPort = z.preprocess(
  (value) => (value === "" ? undefined : value),
  z.coerce
    .number({ error: "must be a port number between 1 and 65535, or empty for none" })
    .int("must be a whole number")
    .min(1, "must be between 1 and 65535")
    .max(65535, "must be between 1 and 65535")
    .optional(),
);

export function positiveInt(defaultValue: number, unit: string, max = Number.MAX_SAFE_INTEGER) {
  return z.coerce
    .number({ error: `must be a whole number of ${unit}` })
    .int(`must be a whole number of ${unit}`)
    .min(1, `must be at least 1 ${unit}`)
    .max(max, `must be at most ${max} ${unit}`)
    .default(defaultValue);
}

const flag = (defaultValue: "true" | "false") =>
  z
    .enum(["true", "false", "1", "0", "yes", "no"], { error: 'must be "true" or "false"' })
    .default(defaultValue)
    .transform((v) => v === "true" || v === "1" || v === "yes");

export const booleanFlag = flag("false");

/** An empty value (`NAME=` in .env, passed on by compose) counts as unset. */
export function emptyAsUnset<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === "" ? undefined : value), schema);
}

/** A label value naming one installation among those sharing a Docker engine. */
export const installationId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_.-]{0,62}$/, {
    message:
      "must be 1 to 63 lowercase letters, digits, '.', '_' or '-', starting with a letter or digit, e.g. acme-prod",
  })
  .optional();
/** A flag that is on unless set to false. */
export const booleanFlagOn = flag("true");

/**
 * Why `path` cannot be a folder the service owns alone (it empties it at every start), or null.
 * Kept simple: absolute, at least two levels deep (so not `/`, `/tmp`, `/var`, `/home`), and not
 * the temp folder itself or the user's home.
 */
export function sharedFolderProblem(path: string): string | null {
  if (!isAbsolute(path)) return "must be an absolute path";
  const resolved = resolve(path);
  if (resolved.split(sep).filter(Boolean).length < 2)
    return "must not be / or a top-level folder such as /tmp";
  if (resolved === resolve(tmpdir()) || resolved === resolve(homedir()))
    return "must not be the temp folder or the home folder itself";
  return null;
}

/** A folder of the service's own, emptied at each start; unset: the app's default. */
export const ownFolder = z
  .string()
  .optional()
  .superRefine((value, ctx) => {
    const problem = value === undefined ? null : sharedFolderProblem(value);
    if (problem !== null)
      ctx.addIssue({
        code: "custom",
        message: `${problem}: the worker empties this folder at every start, so give it one of its own, e.g. /var/lib/secondshift/work`,
      });
  });

/**
 * Who may create a workspace through the API: "owners" (someone who already owns one, the
 * default), "anyone" signed in, or "operator-only" (none through the API: first-run setup makes
 * the first workspace and the operator the rest).
 */
export const WORKSPACE_CREATION_POLICIES = ["owners", "anyone", "operator-only"] as const;
export type WorkspaceCreationPolicy = (typeof WORKSPACE_CREATION_POLICIES)[number];

export const workspaceCreation = z
  .enum(WORKSPACE_CREATION_POLICIES, {
    error: `must be one of ${WORKSPACE_CREATION_POLICIES.join(", ")}`,
  })
  .default("owners");
