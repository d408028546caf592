export { parseRepoConfig } from "./parse.ts";
export type { ParseRepoConfigOptions } from "./parse.ts";
export { ACCESS_ONLY_MESSAGE, isForbiddenKey } from "./forbidden-keys.ts";
export { compareGroups } from "./normalise.ts";
export { cronProblem, isValidTimezone } from "./checks.ts";
export {
  REPO_CONFIG_FILE,
  REPO_CONFIG_SCHEMA_ID,
  REPO_CONFIG_VERSION,
  TOOL_NAME_PATTERN,
  repoConfigCaps,
  repoConfigSchema,
} from "./schema.ts";
export type {
  ParseRepoConfigResult,
  RepoConfig,
  RepoConfigError,
  RepoConfigLimits,
  RepoJob,
  RequestedKind,
  RequestedToolGroup,
} from "./types.ts";
export { createConfigReader } from "./off-thread.ts";
export type { ConfigReader, ConfigReaderOptions } from "./off-thread.ts";
