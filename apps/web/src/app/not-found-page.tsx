import { NotFound } from "../ui/not-found";

/** Any address no route matches. */
export function NotFoundPage() {
  return <NotFound />;
}
