import { LoaderCircle } from "lucide-react";

/**
 * A button's spinner while its action is on its way. The button stays focusable meanwhile (aria-disabled, not
 * disabled): focus must not fall to the page while the answer comes.
 */
export function BusyIcon() {
  return <LoaderCircle aria-hidden className="size-4 animate-spin" />;
}
