import { NotFound } from "../components/not-found";

/** Any address no route matches. */
export function NotFoundPage() {
  return <NotFound />;
}
