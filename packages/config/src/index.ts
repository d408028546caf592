export { ConfigError } from "./env/config-error.ts";
export { parseEnv } from "./env/parse-env.ts";
export type { Env, WorkspaceCreationPolicy } from "./env/fields.ts";
export { sharedFolderProblem, WORKSPACE_CREATION_POLICIES } from "./env/fields.ts";
export {
  gatewayEnvSchema,
  loadGatewayEnv,
  loadMaintenanceEnv,
  loadWebEnv,
  loadWorkerEnv,
  webEnvSchema,
  workerEnvSchema,
} from "./env/services.ts";
export type { GatewayEnv, WebEnv, WorkerEnv } from "./env/services.ts";
export * from "./repo-config/index.ts";
