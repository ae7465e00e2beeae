import { clsx } from "clsx";
import { CircleCheck, Info, TriangleExclamationPoint } from "lucide-react";
import type { ReactNode } from "react";
import { LinkButton } from "./button";

const tones = {
  success: {
    box: "border-emerald-400/25 bg-emerald-500/10 text-emerald-100",
    icon: CircleCheck,
    iconTone: "text-emerald-300",
  },
  error: {
    box: "border-rose-400/25 bg-rose-500/10 text-rose-100",
    icon: TriangleExclamationPoint,
    iconTone: "text-rose-300",
  },
  info: { box: "border-sky-400/25 bg-sky-500/10 text-sky-100", icon: Info, iconTone: "text-sky-300" },
} as const;

/** An inline message box; errors are announced as alerts, the rest as status. */
export function Notice({
  tone,
  children,
  action,
  className,
}: {
  tone: keyof typeof tones;
  children: ReactNode;
  action?: ReactNode;
  className?: string;
}) {
  const t = tones[tone];
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={clsx("flex flex-col gap-3 rounded-xl border px-4 py-3 text-sm", t.box, className)}
    >
      <div className="flex items-start gap-2.5">
        <t.icon aria-hidden className={clsx("mt-0.5 size-4 shrink-0", t.iconTone)} />
        <div className="min-w-0">{children}</div>
      </div>
      {action ? <div className="pl-6.5">{action}</div> : null}
    </div>
  );
}

/** An error notice with one way on: a link back (home, to the song, to the login page). */
export function BackNotice({ to, label, children }: { to: string; label: string; children: ReactNode }) {
  return (
    <Notice
      tone="error"
      action={
        <LinkButton to={to} variant="secondary" size="sm">
          {label}
        </LinkButton>
      }
    >
      {children}
    </Notice>
  );
}
