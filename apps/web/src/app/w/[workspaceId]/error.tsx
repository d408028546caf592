"use client";
// A failed workspace page shows its error inside the shell (navigation stays usable).
import { PageError, type PageErrorProps } from "../../../components/ui/page-error.tsx";

export default function WorkspaceError(props: PageErrorProps) {
  return <PageError {...props} />;
}
