import { clsx } from "clsx";
import { type ReactNode, useEffect } from "react";

/** Sets the document title to "<title> · Unheard" while the page is shown. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · Unheard` : "Unheard";
  }, [title]);
}

/** A page's heading block (h1 plus optional subtitle and actions), which also sets the tab title. */
export function PageHeader({
  title,
  subtitle,
  actions,
  documentTitle,
}: {
  title: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  /** Tab title when it should differ from the heading. */
  documentTitle?: string;
}) {
  usePageTitle(documentTitle ?? title);
  return (
    <header className="mb-6 flex flex-wrap items-center justify-between gap-4 md:mb-8">
      <div className="min-w-0">
        <h1 className="text-2xl font-bold tracking-tight text-white md:text-3xl">{title}</h1>
        {subtitle ? <p className="mt-1.5 text-sm text-zinc-400 md:text-base">{subtitle}</p> : null}
      </div>
      {actions ? <div className="flex items-center gap-2">{actions}</div> : null}
    </header>
  );
}

/** A rounded surface for grouped content. */
export function Panel({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <section className={clsx("rounded-2xl border border-white/[0.06] bg-zinc-900/60 p-5 md:p-6", className)}>
      {children}
    </section>
  );
}
