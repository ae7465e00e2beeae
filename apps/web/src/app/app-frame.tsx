import { type ReactNode, useEffect } from "react";
import { DeferredToaster } from "../lib/toast";

/** Marks the page interactive (`<html data-hydrated>`): before that a server-rendered button does nothing. */
function MarkHydrated() {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  return null;
}

/**
 * What sits beside the router on both sides, the browser's (main.tsx) and the server's (entry-server.tsx): the two
 * trees must have the same shape, or the ids React makes (useId) differ and the server's HTML points at ids the
 * browser does not use (a search box's aria-controls).
 */
export function AppFrame({ children }: { children: ReactNode }) {
  return (
    <>
      {children}
      <DeferredToaster theme="dark" position="top-center" richColors closeButton duration={4000} />
      <MarkHydrated />
    </>
  );
}
