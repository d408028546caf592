export { claimRedisDatabase, type RedisDatabase } from "./redis-database.ts";
export { LOOPBACK_ALLOWED, startWebApp } from "./web-app.ts";
export type { WebApp, WebAppOptions } from "./web-app.ts";
export { launchBrowser, screenshot, seriousA11yViolations, watchCspViolations } from "./browser.ts";
export type { A11yViolation } from "./browser.ts";
export { mutateAs, signInContext } from "./session.ts";
export { conversationEvent, seedTranscript } from "./transcript.ts";
export type { SeededEvent } from "./transcript.ts";
