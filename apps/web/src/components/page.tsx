import { clsx } from "clsx";
import { Construction } from "lucide-react";
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

/** The placeholder body of a screen that is not built yet. */
export function ComingSoon({ children }: { children?: ReactNode }) {
  return (
    <Panel className="flex flex-col items-center gap-3 py-14 text-center">
      <span className="grid size-12 place-items-center rounded-full bg-violet-500/15 text-violet-300">
        <Construction aria-hidden className="size-6" />
      </span>
      <p className="text-lg font-semibold text-zinc-100">Coming soon</p>
      <p className="max-w-md text-sm text-zinc-400">
        {children ?? "This part of Unheard is still being built. Check back shortly."}
      </p>
    </Panel>
  );
}

/** A centred, narrow column for forms such as login and register. */
export function NarrowPage({ children }: { children: ReactNode }) {
  return <div className="mx-auto w-full max-w-md">{children}</div>;
}
