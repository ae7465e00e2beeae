import { type ComponentType, type LazyExoticComponent, lazy } from "react";

// Parts of a page whose code loads after it (React.lazy), tracked so the server can wait for them before its last
// render (entry-server.tsx): a boundary the server left as its fallback would be rendered again in the browser.
const loading = new Set<Promise<unknown>>();

/** React.lazy for a part of a page, `pick`ing the component from its module. */
export function lazyPart<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => {
    const promise = load().then((m) => ({ default: pick(m) }));
    loading.add(promise);
    void promise.finally(() => loading.delete(promise)).catch(() => undefined);
    return promise;
  });
}

/** The lazy parts still loading (the server waits for them, then renders again). */
export function lazyPartsLoading(): Promise<unknown>[] {
  return [...loading];
}
