import type { LucideIcon } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { toast } from "../lib/toast";
import { Button } from "./button";
import { IconCircle } from "./icon-circle";
import { Notice } from "./notice";
import { Panel } from "./page";

/** A list that could not be loaded: the spec's message as a toast once and inline, with a retry. */
export function LoadError({
  message,
  onRetry,
  retrying,
}: {
  message: string;
  onRetry: () => void;
  retrying?: boolean;
}) {
  useEffect(() => {
    toast.error(message, { id: `load-error:${message}` });
  }, [message]);
  return (
    <Notice
      tone="error"
      action={
        <Button variant="secondary" size="sm" loading={retrying} onClick={onRetry}>
          Try again
        </Button>
      }
    >
      {message}
    </Notice>
  );
}

/** The calm "nothing to do" panel of a queue. */
export function EmptyState({ icon: Icon, title, children }: { icon: LucideIcon; title: string; children?: ReactNode }) {
  return (
    <Panel className="flex flex-col items-center gap-3 py-14 text-center">
      <IconCircle icon={Icon} className="size-12 bg-violet-500/15 text-violet-300" />
      <p className="text-lg font-semibold text-zinc-100">{title}</p>
      {children ? <p className="max-w-md text-sm text-zinc-400">{children}</p> : null}
    </Panel>
  );
}

/** A small rounded label (reason, status, "Hidden"). */
export function Pill({
  tone = "neutral",
  children,
}: {
  tone?: "neutral" | "violet" | "amber" | "rose" | "emerald";
  children: ReactNode;
}) {
  const tones = {
    neutral: "bg-zinc-700/60 text-zinc-200 ring-zinc-500/30",
    violet: "bg-violet-500/15 text-violet-200 ring-violet-400/30",
    amber: "bg-amber-500/15 text-amber-200 ring-amber-400/30",
    rose: "bg-rose-500/15 text-rose-200 ring-rose-400/30",
    emerald: "bg-emerald-500/15 text-emerald-200 ring-emerald-400/30",
  } as const;
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${tones[tone]}`}
    >
      {children}
    </span>
  );
}
