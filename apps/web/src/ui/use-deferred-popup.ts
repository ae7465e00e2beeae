import { useState } from "react";

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
