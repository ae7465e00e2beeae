import { WifiOff } from "lucide-react";
import { OFFLINE_MESSAGE } from "../lib/api/api";
import { useOnline } from "../lib/api/online";

/** A banner while the browser is offline; React Query refetches by itself when it is back. */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <div
      role="status"
      className="flex items-center justify-center gap-2 border-b border-amber-400/20 bg-amber-500/10 px-4 py-2 text-center text-sm text-amber-200"
    >
      <WifiOff aria-hidden className="size-4 shrink-0" />
      {OFFLINE_MESSAGE}
    </div>
  );
}
