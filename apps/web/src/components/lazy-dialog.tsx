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

/**
 * State and trigger props of a button whose popup code loads on first press (fetched ahead on hover, touch or
 * focus). Until `wanted`, render the plain button with `triggerProps`; then the lazy popup, open under `open`.
 */
export function useDeferredPopup(load: () => Promise<unknown>) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const prefetch = () => void load();
  return {
    open,
    setOpen,
    wanted,
    triggerProps: {
      type: "button" as const,
      "aria-haspopup": "dialog" as const,
      "aria-expanded": open,
      onPointerEnter: prefetch,
      onTouchStart: prefetch,
      onFocus: prefetch,
      onClick: () => {
        setWanted(true);
        setOpen(true);
      },
    },
  };
}
