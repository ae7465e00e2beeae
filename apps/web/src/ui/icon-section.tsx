import { clsx } from "clsx";
import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Panel } from "./page";

/**
 * A panel of a text page (About, Developers) headed by an icon (coloured by `tint`) and a title. `wide` spans
 * both columns of the page's two-column grid; `compact` sets the paragraphs closer together.
 */
export function IconSection({
  icon: Icon,
  tint,
  title,
  wide = false,
  compact = false,
  children,
}: {
  icon: LucideIcon;
  tint: string;
  title: string;
  wide?: boolean;
  compact?: boolean;
  children: ReactNode;
}) {
  return (
    <Panel className={clsx("flex min-w-0 flex-col gap-3", wide && "lg:col-span-2")}>
      <h2 className="flex items-center gap-2.5 text-lg font-semibold text-white">
        <span className="grid size-9 shrink-0 place-items-center rounded-xl bg-white/5">
          <Icon aria-hidden className={clsx("size-5", tint)} />
        </span>
        {title}
      </h2>
      <div className={clsx("flex min-w-0 flex-col text-sm leading-relaxed text-zinc-300", compact ? "gap-2" : "gap-3")}>
        {children}
      </div>
    </Panel>
  );
}
