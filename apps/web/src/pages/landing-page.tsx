import { ArrowRight, Headphones } from "lucide-react";
import { Brand } from "../components/brand";
import { buttonClass, LinkButton } from "../components/button";
import { ComingSoon, usePageTitle } from "../components/page";

/** /landing: the marketing page, outside the shell. The demo player and waitlist form come later. */
export function LandingPage() {
  usePageTitle("Early Access");
  return (
    <div className="min-h-dvh bg-zinc-950 text-zinc-100">
      <div
        aria-hidden
        className="pointer-events-none fixed inset-x-0 top-0 h-[32rem] bg-[radial-gradient(ellipse_at_top,rgba(139,92,246,0.28),transparent_60%)]"
      />
      <header className="relative mx-auto flex max-w-6xl items-center justify-between px-5 py-5 md:px-8">
        <Brand />
        <LinkButton to="/" variant="secondary" size="sm">
          Open the app
        </LinkButton>
      </header>
      <main className="relative mx-auto flex max-w-6xl flex-col items-center px-5 pt-16 pb-24 text-center md:px-8 md:pt-28">
        <span className="mb-6 inline-flex items-center gap-2 rounded-full border border-white/10 bg-white/5 px-3 py-1 text-xs font-medium text-zinc-300">
          <Headphones aria-hidden className="size-3.5 text-violet-300" /> Early access
        </span>
        <h1 className="max-w-3xl text-4xl font-extrabold tracking-tight text-white sm:text-5xl md:text-6xl">
          Hear it{" "}
          <span className="bg-gradient-to-r from-violet-300 to-fuchsia-300 bg-clip-text text-transparent">before</span>{" "}
          everyone else.
        </h1>
        <p className="mt-5 max-w-xl text-base text-zinc-400 md:text-lg">
          Discover, track and verify unreleased songs with a community that cares about getting it right.
        </p>
        <a href="#waitlist" className={buttonClass("primary", "lg", "mt-8")}>
          Get Early Access <ArrowRight aria-hidden className="size-4" />
        </a>
        <section id="waitlist" className="mt-24 w-full max-w-xl scroll-mt-8 text-left">
          <h2 className="mb-4 text-xl font-semibold text-white">Join the waitlist</h2>
          <ComingSoon>The demo player and the waitlist form are on their way.</ComingSoon>
        </section>
      </main>
    </div>
  );
}
