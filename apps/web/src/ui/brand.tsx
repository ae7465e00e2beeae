import { clsx } from "clsx";
import { AudioLines } from "lucide-react";
import { Link } from "react-router";

/** The Unheard wordmark, linking home. */
export function Brand({ className, compact = false }: { className?: string; compact?: boolean }) {
  return (
    <Link
      to="/"
      className={clsx("inline-flex items-center gap-2.5 rounded-lg font-bold tracking-tight text-white", className)}
      aria-label={compact ? "Unheard home" : undefined}
    >
      <span className="grid size-8 place-items-center rounded-xl bg-gradient-to-br from-violet-500 to-fuchsia-500 shadow-lg shadow-fuchsia-500/20">
        <AudioLines aria-hidden className="size-[18px] text-white" />
      </span>
      {compact ? null : <span className="text-lg">Unheard</span>}
    </Link>
  );
}
