"use client";
// Adds a webhook (owners). The signing secret comes back once, in this response only: it is
// kept in this component's state (never the URL, query cache or storage) and shown once. The
// fields are cleared only once the server has added the webhook: a refused one keeps what was
// typed, next to the reason.
import { FINAL_STATUSES, isFinal, isRunStatus, type FinalStatus } from "@secondshift/vocabulary";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { statusWord } from "../runs/status.ts";
import { Button } from "../ui/button.tsx";
import { errorMessage, fieldErrors } from "../ui/error-message.ts";
import { Field } from "../ui/field.tsx";
import { formText } from "../ui/form-data.ts";
import { SecretOnce } from "../ui/secret-once.tsx";

export function CreateWebhookForm({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const create = useMutation(
    trpc.webhooks.create.mutationOptions({
      onSuccess: async (result, input) => {
        setCreated({ name: input.name, secret: result.secret });
        formRef.current?.reset();
        await queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey() });
      },
    }),
  );
  const errors = fieldErrors(create.error);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const jobKeys = formText(form, "jobKeys")
      .split(",")
      .map((k) => k.trim())
      .filter(Boolean);
    // The boxes offer final statuses only (a report is sent when a run ends).
    const statuses = form
      .getAll("statuses")
      .filter((s): s is FinalStatus => isRunStatus(s) && isFinal(s));
    setCreated(null);
    create.mutate({
      workspaceId,
      name: formText(form, "name"),
      url: formText(form, "url"),
      jobKeys,
      statuses,
    });
  }

  return (
    <section aria-labelledby="add-webhook-heading" className="flex flex-col gap-3">
      <h2 id="add-webhook-heading" className="text-base font-semibold text-slate-900">
        Add a webhook
      </h2>
      {created ? (
        <div className="flex flex-col gap-2">
          <p role="status" className="text-sm text-green-900">
            {`Webhook "${created.name}" added. Reports are signed with this secret (HMAC-SHA256).`}
          </p>
          <SecretOnce label="Signing secret" value={created.secret} />
          <div>
            <Button tone="secondary" onClick={() => setCreated(null)}>
              I have stored the secret
            </Button>
          </div>
        </div>
      ) : null}
      <form
        ref={formRef}
        aria-label="Add a webhook"
        onSubmit={submit}
        className="flex max-w-xl flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4"
      >
        <Field label="Name" name="name" required maxLength={100} error={errors.name} />
        <Field
          label="Receiver URL"
          name="url"
          type="url"
          required
          hint="HTTPS address that receives a POST per report. Stored encrypted; not shown again."
          error={errors.url}
        />
        <Field
          label="Only these jobs"
          name="jobKeys"
          hint="Job keys, separated by commas. Empty: every job."
          error={errors.jobKeys}
        />
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium text-slate-800">
            Only runs that end as (none ticked: every final status)
          </legend>
          <div className="flex flex-wrap gap-3">
            {FINAL_STATUSES.map((s) => (
              <label key={s} className="flex items-center gap-1 text-sm">
                <input type="checkbox" name="statuses" value={s} />
                {statusWord(s).word}
              </label>
            ))}
          </div>
        </fieldset>
        {create.isError ? (
          <p role="alert" className="text-sm text-red-800">
            {errorMessage(create.error)}
          </p>
        ) : null}
        <div>
          <Button type="submit" pending={create.isPending}>
            Add webhook
          </Button>
        </div>
      </form>
    </section>
  );
}
