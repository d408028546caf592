"use client";
// Owners check a stored key with one cheap call to the provider (its model list). The answer
// is said in plain words; the key itself is never part of it.
import type { AppRouter } from "@secondshift/api";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { Button } from "../ui/button.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { useTRPC } from "../../trpc/react.tsx";

type VerifyResult = inferRouterOutputs<AppRouter>["providers"]["verify"];

const REASONS: Record<Extract<VerifyResult, { ok: false }>["reason"], string> = {
  KEY_REFUSED: "Key refused.",
  UNREACHABLE: "Not reachable.",
  ADDRESS_REFUSED: "Address not allowed.",
  NOT_A_PROVIDER: "Not a model provider.",
  PROVIDER_ERROR: "Provider error.",
};

export function describeVerify(result: VerifyResult): string {
  if (result.ok) {
    const count = result.models.length;
    return `The key works: ${count} model${count === 1 ? "" : "s"} available (${result.models.join(", ")}).`;
  }
  return `${REASONS[result.reason]} ${result.message}`;
}

export function VerifyProvider(props: { workspaceId: string; providerId: string; name: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const verify = useMutation(
    trpc.providers.verify.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.providers.list.queryKey() }),
    }),
  );
  return (
    <div className="flex flex-col items-start gap-1">
      <Button
        tone="secondary"
        aria-label={`Verify ${props.name}`}
        pending={verify.isPending}
        onClick={() =>
          verify.mutate({ workspaceId: props.workspaceId, providerId: props.providerId })
        }
      >
        Verify
      </Button>
      {verify.data ? (
        <p
          role={verify.data.ok ? "status" : "alert"}
          className={`text-xs ${verify.data.ok ? "text-green-800" : "text-red-800"}`}
        >
          {describeVerify(verify.data)}
        </p>
      ) : null}
      {verify.error ? (
        <p role="alert" className="text-xs text-red-800">
          {errorMessage(verify.error)}
        </p>
      ) : null}
    </div>
  );
}
