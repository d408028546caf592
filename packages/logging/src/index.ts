export { createLogger, createMemorySink, redactedFields } from "./logger.ts";
export type { CreateLoggerOptions, Logger } from "./logger.ts";
export { MASK, SecretMasker } from "./secret-masker.ts";
