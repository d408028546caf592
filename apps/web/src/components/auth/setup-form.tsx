"use client";
// First-run setup: the first user and their workspace. Signs in on success (the API sets the
// session cookie) and opens the new workspace.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button } from "../ui/button.tsx";
import { errorMessage, fieldErrors } from "../ui/error-message.ts";
import { Field } from "../ui/field.tsx";
import { formText } from "../ui/form-data.ts";
import { useTRPC } from "../../trpc/react.tsx";
import { FormError } from "./auth-card.tsx";

export function SetupForm({ tokenRequired, token }: { tokenRequired: boolean; token: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const setup = useMutation(
    trpc.auth.setup.mutationOptions({
      onSuccess: ({ workspaceId }) => router.replace(`/w/${workspaceId}`),
    }),
  );
  const fields = fieldErrors(setup.error);
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        const text = (name: string) => formText(form, name);
        setup.mutate({
          name: text("name"),
          email: text("email"),
          password: text("password"),
          workspaceName: text("workspaceName"),
          ...(tokenRequired ? { setupToken: text("setupToken") } : {}),
        });
      }}
    >
      <p className="text-sm text-slate-600">
        Create the first account. It owns the first workspace and can invite everyone else.
      </p>
      <FormError message={setup.error ? errorMessage(setup.error) : null} />
      {tokenRequired ? (
        <Field
          label="Setup token"
          name="setupToken"
          defaultValue={token}
          required
          autoComplete="off"
          hint="From the setup link the web service printed when it started."
          error={fields.setupToken}
        />
      ) : null}
      <Field label="Your name" name="name" required autoComplete="name" error={fields.name} />
      <Field
        label="Email"
        name="email"
        type="email"
        required
        autoComplete="email"
        error={fields.email}
      />
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
      <Field
        label="Workspace name"
        name="workspaceName"
        required
        hint="Usually your team's name. You can rename it later."
        error={fields.workspaceName}
      />
      <Button type="submit" pending={setup.isPending}>
        {setup.isPending ? "Creating…" : "Create account and workspace"}
      </Button>
    </form>
  );
}
