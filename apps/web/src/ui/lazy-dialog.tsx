import { type ComponentType, lazy, Suspense, useState } from "react";

/**
 * A dialog component whose code (Radix dialog, focus trap, scroll lock) loads the first time it opens, instead
 * of with every page that might open it. Renders nothing until then; stays mounted afterwards, like the original.
 */
export function lazyDialog<P extends { open: boolean }>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Dialog = lazy(async () => ({ default: await load() }));
  return function LazyDialog(props: P) {
    const [used, setUsed] = useState(props.open);
    if (props.open && !used) setUsed(true);
    if (!used && !props.open) return null;
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    );
  };
}
