"use client";
// Owners choose which models runs may use through this provider (empty: any) and the model a
// job gets when it names none. The API refuses a default outside the allowed models.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { Field } from "../ui/field.tsx";
import { useTRPC } from "../../trpc/react.tsx";
import { AllowedModelsInput } from "./allowed-models-input.tsx";
import { parseModelList } from "./models.ts";

export interface EditModelsProps {
  workspaceId: string;
  provider: { id: string; name: string; defaultModel: string | null; allowedModels: string[] };
  onDone: (message: string) => void;
}

export function EditModels({ workspaceId, provider, onDone }: EditModelsProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [allowed, setAllowed] = useState("");
  const [defaultModel, setDefaultModel] = useState("");
  const update = useMutation(trpc.providers.update.mutationOptions());
  const start = () => {
    setAllowed(provider.allowedModels.join("\n"));
    setDefaultModel(provider.defaultModel ?? "");
    update.reset();
    setOpen(true);
  };
  const save = () => {
    const models = parseModelList(allowed);
    update.mutate(
      {
        workspaceId,
        providerId: provider.id,
        allowedModels: models,
        defaultModel: defaultModel.trim() === "" ? null : defaultModel.trim(),
      },
      {
        onSuccess: () => {
          setOpen(false);
          onDone(
            `${provider.name} now allows ${models.length === 0 ? "any model" : models.join(", ")}.`,
          );
          void queryClient.invalidateQueries({ queryKey: trpc.providers.list.queryKey() });
        },
      },
    );
  };
  return (
    <>
      <Button tone="secondary" aria-label={`Edit models of ${provider.name}`} onClick={start}>
        Edit models
      </Button>
      <ConfirmDialog
        open={open}
        title={`Models of ${provider.name}`}
        confirmLabel="Save models"
        pending={update.isPending}
        onCancel={() => setOpen(false)}
        onConfirm={save}
      >
        <div className="flex flex-col gap-3">
          <AllowedModelsInput value={allowed} onChange={setAllowed} />
          <Field
            label="Default model"
            value={defaultModel}
            onChange={(event) => setDefaultModel(event.target.value)}
            hint="Optional; must be one of the allowed models when they are listed."
          />
          {update.error ? (
            <p role="alert" className="text-red-800">
              {errorMessage(update.error)}
            </p>
          ) : null}
        </div>
      </ConfirmDialog>
    </>
  );
}
