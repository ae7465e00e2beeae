import type { Role } from "@unheard/shared";
import { clsx } from "clsx";
import { ROLE_LABELS } from "./role-labels";

const tones: Record<Role, string> = {
  user: "bg-zinc-700/60 text-zinc-200 ring-zinc-500/30",
  verified_contributor: "bg-emerald-500/15 text-emerald-300 ring-emerald-400/30",
  admin: "bg-amber-500/15 text-amber-300 ring-amber-400/30",
  super_admin: "bg-fuchsia-500/15 text-fuchsia-300 ring-fuchsia-400/30",
};

/** A pill naming the user's role. */
export function RoleBadge({ value, className }: { value: Role | undefined; className?: string }) {
  const r = value ?? "user";
  return (
    <span
      className={clsx(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset",
        tones[r],
        className,
      )}
    >
      {ROLE_LABELS[r]}
    </span>
  );
}
