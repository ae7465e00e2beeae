import { RefreshCw } from "lucide-react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { Button, LinkButton } from "../ui/button";
import { NotFound } from "../ui/not-found";
import { Panel, usePageTitle } from "../ui/page";

/** Error boundary of the routes: a 404 answer shows the not-found page, anything else a retry panel. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return <ErrorPanel />;
}

function ErrorPanel() {
  usePageTitle("Something went wrong");
  return (
    <Panel className="mx-auto flex max-w-lg flex-col items-center gap-4 py-12 text-center">
      <h1 className="text-xl font-semibold text-white">Something went wrong</h1>
      <p className="text-sm text-zinc-400">
        This page could not be shown. If you are offline or the app was just updated, reloading usually fixes it.
      </p>
      <div className="flex gap-2">
        <Button icon={<RefreshCw aria-hidden className="size-4" />} onClick={() => window.location.reload()}>
          Reload
        </Button>
        <LinkButton to="/" variant="secondary">
          Go Home
        </LinkButton>
      </div>
    </Panel>
  );
}
