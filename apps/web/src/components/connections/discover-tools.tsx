"use client";
// Owner: ask the connection's server for its tools now (connections.discover, through the web
// process's netguard with the stored credential). The list and its checklist refresh; the
// allowed tools stay as they were until the owner saves the checklist.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { Button } from "../ui/button.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { StatusNote } from "../ui/status-note.tsx";

export function DiscoverTools({
  workspaceId,
  connectionId,
}: {
  workspaceId: string;
  connectionId: string;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const discover = useMutation(
    trpc.connections.discover.mutationOptions({
      onSuccess: async ({ tools }) => {
        setDone(
          `Found ${tools.length} tool${tools.length === 1 ? "" : "s"}. Choose below which ones jobs may use.`,
        );
        await queryClient.invalidateQueries({ queryKey: trpc.connections.list.queryKey() });
      },
    }),
  );
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-3">
        <Button
          tone="secondary"
          pending={discover.isPending}
          onClick={() => {
            setDone(null);
            discover.mutate({ workspaceId, connectionId });
          }}
        >
          Discover tools
        </Button>
        <StatusNote message={done} />
      </div>
      {discover.error ? <StatusNote tone="bad" message={errorMessage(discover.error)} /> : null}
    </div>
  );
}
