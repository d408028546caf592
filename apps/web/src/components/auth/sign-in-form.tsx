"use client";
// Sign-in with email and password. A wrong password and an unknown email get the same answer
// from the API; too many attempts are refused with a wait time (its message is shown as is).
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button } from "../ui/button.tsx";
import { errorMessage, fieldErrors } from "../ui/error-message.ts";
import { Field } from "../ui/field.tsx";
import { formText } from "../ui/form-data.ts";
import { useTRPC } from "../../trpc/react.tsx";
import { FormError } from "./auth-card.tsx";

/** `next`: a path on this site to go to after signing in (already checked by safeNextPath). */
export function SignInForm({ next }: { next?: string | null }) {
  const trpc = useTRPC();
  const router = useRouter();
  const signIn = useMutation(
    trpc.auth.signIn.mutationOptions({
      onSuccess: () => {
        router.replace(next ?? "/");
        router.refresh();
      },
    }),
  );
  const fields = fieldErrors(signIn.error);
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        signIn.mutate({
          email: formText(form, "email"),
          password: formText(form, "password"),
        });
      }}
    >
      <FormError message={signIn.error ? errorMessage(signIn.error) : null} />
      <Field
        label="Email"
        name="email"
        type="email"
        required
        autoComplete="username"
        error={fields.email}
      />
      <Field
        label="Password"
        name="password"
        type="password"
        required
        autoComplete="current-password"
        error={fields.password}
      />
      <Button type="submit" pending={signIn.isPending}>
        {signIn.isPending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
