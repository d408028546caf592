// Named steps: a failure says which step it happened in ("The run failed while copying the
// repository into the sandbox: …"), so the owner knows where to look.

export const STEP = {
  prepare: "preparing the run",
  token: "issuing the run token",
  plan: "freezing the execution plan",
  workspace: "fetching the repository and starting the sandbox",
  copyIn: "copying the repository into the sandbox",
  agent: "running the agent",
  changes: "collecting the run's changes",
} as const;

export type StepName = (typeof STEP)[keyof typeof STEP];

export class StepFailed extends Error {
  constructor(
    readonly step: StepName,
    readonly failure: unknown,
  ) {
    super(failure instanceof Error ? failure.message : String(failure));
    this.name = "StepFailed";
  }

  /** The run's error, before masking. The plan refusal is already written for the owner. */
  userMessage(): string {
    return this.step === STEP.plan
      ? this.message
      : `The run failed while ${this.step}: ${this.message}`;
  }
}

/** Runs one step; any failure leaves it as a StepFailed naming the step. */
export async function step<T>(name: StepName, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof StepFailed ? error : new StepFailed(name, error);
  }
}
