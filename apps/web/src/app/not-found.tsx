import Link from "next/link";
import { EmptyState } from "../components/ui/states.tsx";

export default function NotFound() {
  return (
    <main className="mx-auto max-w-lg p-8">
      <EmptyState
        title="Not found"
        action={
          <Link href="/" className="text-indigo-700 underline">
            Go to your workspace
          </Link>
        }
      >
        This page does not exist, or you do not have access to it.
      </EmptyState>
    </main>
  );
}
