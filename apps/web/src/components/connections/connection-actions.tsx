"use client";
// The owner's actions on one connection that reach the service itself: discover its tools now
// (through netguard, with the stored credential) and connect or reconnect with OAuth (the
// browser goes to the authorization server; /api/oauth/callback brings it back here).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "../../trpc/react.tsx";
import { Button } from "../ui/button.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { StatusNote } from "../ui/status-note.tsx";
import { discoveredInWords } from "./words.ts";

export function DiscoverTools({
  workspaceId,
  connectionId,
  again,
}: {
  workspaceId: string;
  connectionId: string;
  /** Tools were found before (at creation or a last discovery): this asks the service again. */
  again: boolean;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const discover = useMutation(
    trpc.connections.discover.mutationOptions({
      onSuccess: async ({ tools }) => {
        setDone(discoveredInWords(tools));
        await queryClient.invalidateQueries({ queryKey: trpc.connections.pathKey() });
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
          {again ? "Discover tools again" : "Discover tools"}
        </Button>
        <StatusNote message={done} />
      </div>
      {discover.error ? <StatusNote tone="bad" message={errorMessage(discover.error)} /> : null}
    </div>
  );
}

export function OAuthConnect({
  workspaceId,
  connectionId,
  label,
}: {
  workspaceId: string;
  connectionId: string;
  label: string;
}) {
  const trpc = useTRPC();
  const [done, setDone] = useState<string | null>(null);
  const start = useMutation(
    trpc.connections.oauthStart.mutationOptions({
      onSuccess: ({ authorizationUrl }) => {
        // The authorization server's page; it sends the browser back to this connection.
        if (authorizationUrl) window.location.assign(authorizationUrl);
        else setDone("The server asks for no authorization: there is nothing to connect.");
      },
    }),
  );
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center gap-3">
        <Button
          pending={start.isPending}
          onClick={() => {
            setDone(null);
            start.mutate({ workspaceId, connectionId });
          }}
        >
          {label}
        </Button>
        <StatusNote message={done} />
      </div>
      {start.error ? <StatusNote tone="bad" message={errorMessage(start.error)} /> : null}
    </div>
  );
}
