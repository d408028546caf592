export { fatal, onShutdown, openVerifiedDatabase, outboundPolicy } from "./startup.ts";
export { emptyWorkFolder } from "./work-folder.ts";
export type { DatabaseSettings, OutboundSettings } from "./startup.ts";
export {
  createReadiness,
  databaseChecks,
  handleReadyz,
  keyCheck,
  readyzRoute,
  redisCheck,
  sendReadiness,
} from "./readiness.ts";
export type { CheckResult, Readiness, ReadinessCheck, ReadinessReport } from "./readiness.ts";
export { startHealthServer } from "./health-server.ts";
export type { HealthServer } from "./health-server.ts";
export { createMetricsRegistry, serveMetrics } from "./metrics.ts";
export type { MetricsServer } from "./metrics.ts";
