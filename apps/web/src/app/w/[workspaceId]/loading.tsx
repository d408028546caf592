// A workspace page on its way: inside the shell, a heading skeleton and the content's.
import { PageLoading } from "../../../components/ui/states.tsx";

export default function Loading() {
  return <PageLoading />;
}
