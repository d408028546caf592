export { checkAddress, classifyAddress, isPublicAddress } from "./address.ts";
export type { AddressAllowances, AddressClass, AddressDecision } from "./address.ts";
export { createOutboundClient, guardedFetch } from "./client.ts";
export type { GuardedRequestInit, OutboundClient } from "./client.ts";
export type { GuardedRequestOptions, GuardedResponse } from "./request.ts";
export { createDestinationChecker } from "./destination.ts";
export type { DestinationChecker, DestinationKind } from "./destination.ts";
export { createDefaultConnector } from "./connector.ts";
export type { TlsOptions } from "./connector.ts";
export { createGuardedDispatcher } from "./dispatcher.ts";
export type { DispatcherOptions } from "./dispatcher.ts";
export { isNetguardError, netguardReasons } from "./errors.ts";
export type { NetguardReason } from "./errors.ts";
export { DEFAULT_MAX_REDIRECTS, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS } from "./policy.ts";
export type {
  ConnectTarget,
  Connector,
  OutboundPolicy,
  ResolvedAddress,
  Resolver,
} from "./policy.ts";
export { DEFAULT_SENSITIVE_HEADERS } from "./redirect.ts";
