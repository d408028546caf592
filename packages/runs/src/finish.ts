// How a run ends is recorded by the lifecycle module (the only writer of Run.status).
export { BUDGET_EXHAUSTED_ERROR, finishRun } from "@secondshift/run-lifecycle";
