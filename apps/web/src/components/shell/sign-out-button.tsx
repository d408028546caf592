"use client";
// Ends this session on the server (the API clears the cookie), then goes to sign-in.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button } from "../ui/button.tsx";
import { useTRPC } from "../../trpc/react.tsx";

export function SignOutButton() {
  const trpc = useTRPC();
  const router = useRouter();
  const signOut = useMutation(
    trpc.auth.signOut.mutationOptions({
      onSuccess: () => {
        router.replace("/sign-in");
        router.refresh();
      },
    }),
  );
  return (
    <Button tone="secondary" pending={signOut.isPending} onClick={() => signOut.mutate()}>
      Sign out
    </Button>
  );
}
