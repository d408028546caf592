export { fetchRepository, FETCHED_REF } from "./fetch-repository.ts";
export type { FetchRepositoryOptions, FetchRepositoryResult } from "./fetch-repository.ts";
export { fetchByteCap } from "./fetch-watchdog.ts";
export { exportTree, exportTreeToDirectory } from "./export-tree.ts";
export type { ExportOptions } from "./export-tree.ts";
export { checkTreeSize, measureTree } from "./tree-size.ts";
export { listCommitTree, readObject } from "./commit-tree.ts";
export type { CommitTreeEntry } from "./commit-tree.ts";
export type { TreeLimits, TreeSize } from "./tree-size.ts";
export { checkRemote } from "./remote.ts";
export type { CheckedRemote, GitRemotePolicy } from "./remote.ts";
export type { GitCredential } from "./git-env.ts";
export {
  gitCredential,
  githubAppInstallation,
  repositoryCredential,
  TOKEN_USERNAME,
} from "./credential.ts";
export type {
  InstallationTokenRequest,
  MintInstallationToken,
  RepositoryConnection,
  RepositoryCredential,
} from "./credential.ts";
export { syncRepository } from "./sync.ts";
export { upsertJobsFromConfig } from "./upsert-jobs.ts";
export type { SyncChange, SyncedJob, UpsertJobsInput, UpsertJobsResult } from "./upsert-jobs.ts";
export type { SyncDeps, SyncResult } from "./sync.ts";
export {
  handlePushWebhook,
  REPLAYED,
  SECRET_UNREADABLE,
  syncOnPush,
  UNAUTHORIZED,
  verifyRepositoryDelivery,
  webhookHeader,
} from "./push-webhook.ts";
export type {
  DeliveryInput,
  PushWebhookDeps,
  PushWebhookResponse,
  RepositoryDeliveryCheck,
  WebhookHeaders,
  WebhookRepository,
} from "./push-webhook.ts";
export { exportHistory } from "./export-history.ts";
export type { ExportedHistory, ExportHistoryOptions, HistoryLimits } from "./export-history.ts";
