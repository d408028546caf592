import { LoadingState } from "../../../components/ui/states.tsx";

export default function Loading() {
  return <LoadingState />;
}
