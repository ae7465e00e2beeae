import { LoaderCircle } from "lucide-react";

/** A centred loading indicator with an accessible label. */
export function Spinner({ label = "Loading" }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-40 items-center justify-center gap-2 text-sm text-zinc-400">
      <LoaderCircle aria-hidden className="size-5 animate-spin text-violet-300" />
      <span>{label}…</span>
    </div>
  );
}

/** Full-screen loading state shown before the first route is ready. */
export function FullPageSpinner() {
  return (
    <div className="grid min-h-dvh place-items-center bg-zinc-950">
      <Spinner />
    </div>
  );
}
