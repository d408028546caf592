"use client";
// The signed-in user's sessions: when, on which device (browser and system from its User-Agent)
// and from which address each was signed in — never a token. Ending one signs that device out
// at its next request; ending this browser's session, or all of them, goes to sign-in.
import { useMutation, useQueryClient, useSuspenseQuery } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "../ui/badge.tsx";
import { deviceInWords } from "./device.ts";
import { Button } from "../ui/button.tsx";
import { ConfirmDialog } from "../ui/confirm-dialog.tsx";
import { errorMessage } from "../ui/error-message.ts";
import { formatUtc } from "../ui/time-format.ts";
import { Timestamp } from "../ui/timestamp.tsx";
import { Notice } from "../ui/states.tsx";
import { Table, Td, Th, Tr } from "../ui/table.tsx";
import { useTRPC } from "../../trpc/react.tsx";

type Ending = { kind: "one"; sessionId: string; current: boolean } | { kind: "all" };

export function SessionsTable() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { data: sessions } = useSuspenseQuery(trpc.auth.sessions.list.queryOptions());
  const [ending, setEnding] = useState<Ending | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const revoke = useMutation(trpc.auth.sessions.revoke.mutationOptions());
  const everywhere = useMutation(trpc.auth.signOutEverywhere.mutationOptions());
  const failed = revoke.error ?? everywhere.error;
  const signedOut = () => {
    router.replace("/sign-in");
    router.refresh();
  };

  function confirm() {
    if (!ending) return;
    if (ending.kind === "all") {
      everywhere.mutate(undefined, { onSuccess: signedOut });
      return;
    }
    revoke.mutate(
      { sessionId: ending.sessionId },
      {
        onSuccess: () => {
          if (ending.current) return signedOut();
          setEnding(null);
          setNotice("The session was ended; that device is signed out.");
          void queryClient.invalidateQueries({ queryKey: trpc.auth.sessions.list.queryKey() });
        },
      },
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <Notice message={notice} />
      <Table caption="Your sessions">
        <thead>
          <tr>
            <Th>Device</Th>
            <Th>Address</Th>
            <Th>Signed in</Th>
            <Th>Expires at the latest</Th>
            <Th>Actions</Th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((s) => (
            <Tr key={s.id}>
              <Td>
                {deviceInWords(s.userAgent)}{" "}
                {s.current ? <Badge tone="info">This browser</Badge> : null}
              </Td>
              <Td>
                <span className="font-mono text-xs">{s.clientAddress ?? "Not recorded"}</span>
              </Td>
              <Td>
                <Timestamp value={s.createdAt} />
              </Td>
              <Td>
                <Timestamp value={s.expiresAt} />
              </Td>
              <Td>
                <Button
                  tone="secondary"
                  aria-label={`End the session of ${deviceInWords(s.userAgent)} signed in ${formatUtc(s.createdAt)}`}
                  onClick={() => setEnding({ kind: "one", sessionId: s.id, current: s.current })}
                >
                  End
                </Button>
              </Td>
            </Tr>
          ))}
        </tbody>
      </Table>
      <div>
        <Button tone="danger" onClick={() => setEnding({ kind: "all" })}>
          Sign out everywhere
        </Button>
      </div>
      <ConfirmDialog
        open={ending !== null}
        title={ending?.kind === "all" ? "Sign out everywhere?" : "End this session?"}
        confirmLabel={ending?.kind === "all" ? "Sign out everywhere" : "End session"}
        tone="danger"
        pending={revoke.isPending || everywhere.isPending}
        onCancel={() => {
          setEnding(null);
          revoke.reset();
          everywhere.reset();
        }}
        onConfirm={confirm}
      >
        <p>
          {ending?.kind === "all"
            ? "Every device signed in to your account is signed out, this browser included."
            : ending?.current
              ? "This browser is signed out."
              : "That device is signed out at its next request."}
        </p>
        {failed ? (
          <p role="alert" className="mt-2 text-red-800">
            {errorMessage(failed)}
          </p>
        ) : null}
      </ConfirmDialog>
    </div>
  );
}
