"use client";
// Owners choose which models runs may use through this provider (empty: any) and the model a
// job gets when it names none. The API refuses a default outside the allowed models. One
// dialog for the table, outside it (a closed dialog in every row would repeat its text there).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { Field } from "../ui/field.tsx";
import { useTRPC } from "../../trpc/react.tsx";
import { AllowedModelsInput } from "./allowed-models-input.tsx";
import { parseModelList } from "./models.ts";

export interface ModelsTarget {
  id: string;
  name: string;
  defaultModel: string | null;
  allowedModels: string[];
}

export interface EditModelsDialogProps {
  workspaceId: string;
  /** The provider being edited; null: closed. Remount (key) per provider to start afresh. */
  provider: ModelsTarget | null;
  onClose: () => void;
  onDone: (message: string) => void;
}

export function EditModelsDialog({
  workspaceId,
  provider,
  onClose,
  onDone,
}: EditModelsDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [allowed, setAllowed] = useState(provider?.allowedModels.join("\n") ?? "");
  const [defaultModel, setDefaultModel] = useState(provider?.defaultModel ?? "");
  const update = useMutation(trpc.providers.update.mutationOptions());
  const save = () => {
    if (!provider) return;
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
          onDone(
            `${provider.name} now allows ${models.length === 0 ? "any model" : models.join(", ")}.`,
          );
          void queryClient.invalidateQueries({ queryKey: trpc.providers.list.queryKey() });
        },
      },
    );
  };
  return (
    <ConfirmDialog
      open={provider !== null}
      title={`Models of ${provider?.name ?? "this provider"}`}
      confirmLabel="Save models"
      pending={update.isPending}
      onCancel={onClose}
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
  );
}
