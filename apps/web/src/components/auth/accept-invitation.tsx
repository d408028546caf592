"use client";
// Accepting an invitation. The token is in the link's fragment (#token=…), which browsers send
// to no server; this page reads it, asks the API what it offers, and joins. A signed-in user
// joins with their account; anyone else chooses a name and password for the invited email.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "../ui/button.tsx";
import { errorMessage, fieldErrors } from "../ui/error-message.ts";
import { Field } from "../ui/field.tsx";
import { formText } from "../ui/form-data.ts";
import { ErrorState, LoadingState } from "../ui/states.tsx";
import { useTRPC } from "../../trpc/react.tsx";
import { FormError } from "./auth-card.tsx";
import { ROLE_WORDS } from "./roles.ts";

const UNUSABLE = {
  used: "This invitation was already used.",
  revoked: "This invitation was withdrawn by the workspace owner.",
  expired: "This invitation has expired.",
} as const;

function tokenFromFragment(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get("token") ?? "";
}

export function AcceptInvitation({ signedInAs }: { signedInAs: string | null }) {
  const trpc = useTRPC();
  const preview = useMutation(trpc.auth.invitations.preview.mutationOptions());
  const [token, setToken] = useState<string | null>(null);
  useEffect(() => {
    const found = tokenFromFragment();
    setToken(found);
    if (found) preview.mutate({ token: found });
    // Once, on arrival: the fragment does not change while the page is open.
  }, []);

  if (token === "") {
    return (
      <ErrorState
        title="No invitation in this link"
        message="Open the full link you were sent; it ends with #token=…"
      />
    );
  }
  if (preview.error) {
    return (
      <ErrorState title="This invitation cannot be used" message={errorMessage(preview.error)} />
    );
  }
  if (!preview.data || token === null) return <LoadingState label="Reading the invitation…" />;
  const offer = preview.data;
  const role = ROLE_WORDS[offer.role];
  return (
    <div className="flex flex-col gap-4">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Workspace</dt>
        <dd className="font-medium">{offer.workspaceName}</dd>
        <dt className="text-slate-600">Role</dt>
        <dd>
          <span className="font-medium">{role.name}</span> — {role.does}
        </dd>
        <dt className="text-slate-600">Invited by</dt>
        <dd>{offer.inviterName}</dd>
        <dt className="text-slate-600">For</dt>
        <dd>{offer.email}</dd>
      </dl>
      {offer.state === "open" ? (
        <JoinForm token={token} email={offer.email} signedInAs={signedInAs} />
      ) : (
        <ErrorState
          title="This invitation cannot be used"
          message={`${UNUSABLE[offer.state]} Ask the workspace owner for a new one.`}
        />
      )}
    </div>
  );
}

function JoinForm(props: { token: string; email: string; signedInAs: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const accept = useMutation(
    trpc.auth.invitations.accept.mutationOptions({
      onSuccess: ({ workspaceId }) => {
        router.replace(`/w/${workspaceId}`);
        router.refresh();
      },
    }),
  );
  const fields = fieldErrors(accept.error);
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        accept.mutate(
          props.signedInAs
            ? { token: props.token }
            : {
                token: props.token,
                name: formText(form, "name"),
                password: formText(form, "password"),
              },
        );
      }}
    >
      <FormError message={accept.error ? errorMessage(accept.error) : null} />
      {props.signedInAs ? (
        <p className="text-sm text-slate-700">You are signed in as {props.signedInAs}.</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            Create your account for {props.email}. Already have one? Sign in first, then open this
            link again.
          </p>
          <Field label="Your name" name="name" required autoComplete="name" error={fields.name} />
          <Field
            label="Password"
            name="password"
            type="password"
            required
            minLength={12}
            autoComplete="new-password"
            hint="At least 12 characters."
            error={fields.password}
          />
        </>
      )}
      <Button type="submit" pending={accept.isPending}>
        {accept.isPending ? "Joining…" : "Join the workspace"}
      </Button>
    </form>
  );
}
