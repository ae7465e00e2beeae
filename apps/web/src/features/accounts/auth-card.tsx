import type { ReactNode } from "react";
import { Brand } from "../../ui/brand";
import { usePageTitle } from "../../ui/page";

/** The centred card the account screens share: logo, heading, subtitle, body, footer. */
export function AuthCard({
  documentTitle,
  title,
  subtitle,
  children,
  footer,
}: {
  documentTitle: string;
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  usePageTitle(documentTitle);
  return (
    <div className="mx-auto w-full max-w-md md:pt-6">
      <div className="relative overflow-hidden rounded-3xl border border-white/[0.06] bg-zinc-900/60 p-6 shadow-2xl shadow-black/40 md:p-8">
        <div
          aria-hidden
          className="pointer-events-none absolute -top-24 -right-24 size-56 rounded-full bg-violet-600/20 blur-3xl"
        />
        <div className="relative">
          <Brand compact className="mb-6" />
          <h1 className="text-2xl font-bold tracking-tight text-white">{title}</h1>
          {subtitle ? <p className="mt-1.5 text-sm text-zinc-400">{subtitle}</p> : null}
          <div className="mt-6">{children}</div>
        </div>
      </div>
      {footer ? <p className="mt-5 text-center text-sm text-zinc-400">{footer}</p> : null}
    </div>
  );
}
