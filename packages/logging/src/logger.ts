// Structured logging with two layers of protection: field-name redaction (pino `redact`) for
// anything that looks like a credential, and value masking of every registered secret on the
// serialised line, so a secret logged under an innocent field name is still never written.
import { Writable } from "node:stream";
import pino, { type Logger, type LoggerOptions } from "pino";
import { SecretMasker } from "./secret-masker.ts";

export type { Logger } from "pino";

/** Field names whose values are never written, at any depth we can name. */
export const redactedFields = [
  "authorization",
  "Authorization",
  "x-api-key",
  "apiKey",
  "api_key",
  "password",
  "passwordHash",
  "token",
  "accessToken",
  "refreshToken",
  "secret",
  "credential",
  "credentials",
  "encryptionKey",
  "cookie",
  "set-cookie",
];

const redactPaths = redactedFields.flatMap((f) => {
  const key = /^[A-Za-z_$][\w$]*$/.test(f) ? f : `["${f}"]`;
  const join = (prefix: string) => (key.startsWith("[") ? `${prefix}${key}` : `${prefix}.${key}`);
  return [
    key,
    join("*"),
    join("*.*"),
    join("headers"),
    join("req.headers"),
    join("request.headers"),
  ];
});

export interface CreateLoggerOptions {
  name: string;
  level?: string;
  masker?: SecretMasker;
  /** Where lines go; stdout by default. Tests pass a sink to scan for planted secrets. */
  destination?: NodeJS.WritableStream;
  base?: Record<string, unknown>;
}

export function createLogger(options: CreateLoggerOptions): Logger {
  const masker = options.masker ?? new SecretMasker();
  const target = options.destination ?? process.stdout;
  // Masked synchronously, inside the log call: a line written while a run's scope is open is
  // masked with that run's secrets even if the scope closes right after.
  const maskingStream = { write: (line: string) => target.write(masker.mask(line)) };
  const pinoOptions: LoggerOptions = {
    name: options.name,
    level: options.level ?? "info",
    base: options.base ?? {},
    redact: { paths: redactPaths, censor: "[REDACTED]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: pino.stdSerializers.err, error: pino.stdSerializers.err },
  };
  return pino(pinoOptions, maskingStream);
}

/** A sink that keeps every line in memory, for tests that scan logs for secrets. */
export function createMemorySink(): {
  stream: NodeJS.WritableStream;
  lines: () => string[];
  text: () => string;
} {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const text = () => chunks.join("");
  return { stream, text, lines: () => text().split("\n").filter(Boolean) };
}
