"use client";
// A new workspace's first hour: the steps from nothing to a first run report, each ticked from
// the workspace's real state (workspace.onboarding counts rows, nothing is ticked by hand) and
// linked to the screen where it is done. Once every step is done the overview shows its panels.
import type { AppRouter } from "@secondshift/api";
import { can, type Role } from "@secondshift/vocabulary";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { Badge } from "../ui/badge.tsx";

export type Onboarding = inferRouterOutputs<AppRouter>["workspace"]["onboarding"];

interface Step {
  key: string;
  title: string;
  /** One sentence: what the step asks of the owner. */
  asks: string;
  path: string;
  done: boolean;
  /** What is there already, when it helps (e.g. jobs waiting for a decision). */
  note?: string;
}

export function onboardingSteps(o: Onboarding): Step[] {
  return [
    {
      key: "provider",
      title: "Add a model provider",
      asks: "Runs reach the model only through a provider: add one with its API key and check it.",
      path: "/providers",
      done: o.providers > 0,
    },
    {
      key: "repository",
      title: "Add a repository",
      asks: "Jobs come from a repository's .secondshift.yaml: add the repository and it syncs them.",
      path: "/repositories",
      done: o.repositories > 0,
    },
    {
      key: "connection",
      title: "Connect a service",
      asks: "Connect GitHub, Sentry, an MCP server or an HTTP API and choose which of its tools jobs may use.",
      path: "/connections",
      done: o.connections > 0,
    },
    {
      key: "approval",
      title: "Approve a job",
      asks: "Review the access a job asks for and approve it: only approved jobs run.",
      path: "/jobs",
      done: o.approvedJobs > 0,
      ...(o.jobsWaiting > 0
        ? { note: `${o.jobsWaiting} job${o.jobsWaiting === 1 ? " is" : "s are"} waiting.` }
        : {}),
    },
    {
      key: "webhook",
      title: "Add a webhook",
      asks: "Get every run's report where your team works: add a webhook URL that receives it.",
      path: "/webhooks",
      done: o.webhooks > 0,
    },
  ];
}

export function GettingStarted(props: { workspaceId: string; role: Role; onboarding: Onboarding }) {
  const steps = onboardingSteps(props.onboarding);
  const done = steps.filter((s) => s.done).length;
  return (
    <section
      aria-labelledby="getting-started"
      className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-6"
    >
      <div>
        <h2 id="getting-started" className="text-base font-semibold text-slate-900">
          Getting started
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {done} of {steps.length} steps done.{" "}
          {can(props.role, "own")
            ? "Each step ticks itself when it is done; the overview of runs and reports follows."
            : "An owner of this workspace does these steps; you can follow them here."}
        </p>
      </div>
      <ol className="flex flex-col gap-3">
        {steps.map((step, i) => (
          <li key={step.key} className="flex items-start gap-3">
            <span
              aria-hidden="true"
              className={`mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                step.done ? "bg-green-100 text-green-900" : "bg-slate-100 text-slate-700"
              }`}
            >
              {step.done ? "✓" : i + 1}
            </span>
            <div className="text-sm">
              <p className="flex flex-wrap items-center gap-2">
                <Link
                  className="font-medium text-indigo-700 underline"
                  href={`/w/${props.workspaceId}${step.path}`}
                >
                  {step.title}
                </Link>
                {step.done ? <Badge tone="good">Done</Badge> : <Badge>To do</Badge>}
              </p>
              <p className="text-slate-600">
                {step.asks}
                {step.note ? ` ${step.note}` : ""}
              </p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
