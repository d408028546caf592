// The table of allowed moves lives in @secondshift/vocabulary (the web app reads the same
// statuses and transition names); lifecycle.ts and this package's importers reach it here.
export { FINAL_STATUSES, TRANSITIONS, isFinal } from "@secondshift/vocabulary";
export type { FinalStatus, Transition, TransitionName } from "@secondshift/vocabulary";
