"use client";
// Owners add a model provider. The API key is write-only: sent once, stored encrypted, never
// shown again (the list only says when it was set).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../ui/button.tsx";
import { errorMessage, fieldErrors } from "../ui/error-message.ts";
import { Field } from "../ui/field.tsx";
import { formText } from "../ui/form-data.ts";
import { Notice } from "../ui/states.tsx";
import { useTRPC } from "../../trpc/react.tsx";
import { AllowedModelsInput } from "./allowed-models-input.tsx";
import { parseModelList } from "./models.ts";
import { isDefaultBaseUrl, PROVIDER_KINDS, type ProviderKindName } from "./kinds.ts";

export function AddProviderForm({ workspaceId }: { workspaceId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ProviderKindName>("ANTHROPIC");
  // The base URL follows the kind only while it is a kind's default (or empty): a URL the owner
  // typed is kept when they change the kind.
  const [baseUrl, setBaseUrl] = useState<string>(PROVIDER_KINDS.ANTHROPIC.baseUrl);
  const changeKind = (next: ProviderKindName) => {
    setKind(next);
    setBaseUrl((typed) => (isDefaultBaseUrl(typed) ? PROVIDER_KINDS[next].baseUrl : typed));
  };
  const [notice, setNotice] = useState<string | null>(null);
  const create = useMutation(trpc.providers.create.mutationOptions());
  const fields = fieldErrors(create.error);
  return (
    <section aria-labelledby="add-provider-heading" className="flex flex-col gap-3">
      <h2 id="add-provider-heading" className="text-base font-semibold">
        Add a model provider
      </h2>
      <Notice message={notice} />
      {create.error ? (
        <p role="alert" className="text-sm text-red-800">
          {errorMessage(create.error)}
        </p>
      ) : null}
      <form
        className="grid max-w-2xl grid-cols-1 gap-4 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          const form = event.currentTarget;
          const data = new FormData(form);
          const name = formText(data, "name");
          const defaultModel = formText(data, "defaultModel").trim();
          create.mutate(
            {
              workspaceId,
              name,
              kind,
              baseUrl,
              apiKey: formText(data, "apiKey"),
              defaultModel: defaultModel === "" ? null : defaultModel,
              allowedModels: parseModelList(formText(data, "allowedModels")),
              isDefault: data.get("isDefault") === "on",
            },
            {
              onSuccess: () => {
                form.reset();
                setBaseUrl(PROVIDER_KINDS[kind].baseUrl);
                setNotice(`${name} was added; its key is stored encrypted and will not be shown.`);
                void queryClient.invalidateQueries({ queryKey: trpc.providers.list.queryKey() });
              },
            },
          );
        }}
      >
        <Field label="Name" name="name" required error={fields.name} />
        <div className="flex flex-col gap-1">
          <label htmlFor="provider-kind" className="text-sm font-medium text-slate-800">
            Kind
          </label>
          <select
            id="provider-kind"
            value={kind}
            onChange={(event) => changeKind(event.target.value as ProviderKindName)}
            className="rounded-md border border-slate-300 bg-white px-2 py-2 text-sm"
          >
            {(Object.keys(PROVIDER_KINDS) as ProviderKindName[]).map((k) => (
              <option key={k} value={k}>
                {PROVIDER_KINDS[k].name}
              </option>
            ))}
          </select>
        </div>
        <Field
          label="Base URL"
          name="baseUrl"
          type="url"
          required
          value={baseUrl}
          onChange={(event) => setBaseUrl(event.target.value)}
          error={fields.baseUrl}
        />
        <Field
          label="Default model"
          name="defaultModel"
          hint="Optional; a job's own model wins."
          error={fields.defaultModel}
        />
        <AllowedModelsInput name="allowedModels" error={fields.allowedModels} />
        <Field
          label="API key"
          name="apiKey"
          type="password"
          required
          autoComplete="off"
          hint="Stored encrypted; never shown again."
          error={fields.apiKey}
        />
        <label className="flex items-center gap-2 self-end text-sm">
          <input type="checkbox" name="isDefault" /> Use for jobs that name no provider
        </label>
        <div>
          <Button type="submit" pending={create.isPending}>
            Add provider
          </Button>
        </div>
      </form>
    </section>
  );
}
