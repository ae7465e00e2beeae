import { MESSAGES } from "@unheard/shared";
import { ArrowRight, BadgeCheck, CalendarClock, Headphones, Search, Sparkles } from "lucide-react";
import { useRef, useState } from "react";
import { Link } from "react-router";
import { Brand } from "../../ui/brand";
import { Button, LinkButton } from "../../ui/button";
import { IconCircle } from "../../ui/icon-circle";
import { usePageTitle } from "../../ui/page";
import { useMe } from "../accounts/me";
import { WaitlistForm } from "../waitlist/waitlist-form";
import { LandingPlayer } from "./landing-player";
import { useLandingTracks } from "./landing-tracks";

const FOOTER_LINKS = [
  { to: "/", label: "Browse" },
  { to: "/about", label: "About" },
  { to: "/login", label: "Sign in" },
  { to: "/register", label: "Register" },
];

function smooth(): ScrollBehavior {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
}

/** /landing: the marketing page outside the shell: hero, demo player, features and the waitlist form. */
export function LandingPage() {
  usePageTitle("Early Access");
  const { me } = useMe();
  const nameInput = useRef<HTMLInputElement | null>(null);
  const [joined, setJoined] = useState(false);

  /** Every Early Access button: bring the waitlist form into view and put the cursor in it. */
  const toWaitlist = () => {
    document.getElementById("early-access")?.scrollIntoView({ behavior: smooth(), block: "center" });
    nameInput.current?.focus({ preventScroll: true });
  };

  return (
    <div className="relative min-h-dvh overflow-x-clip bg-zinc-950 text-zinc-100">
      <div
        aria-hidden
        className="pointer-events-none absolute inset-x-0 top-0 h-[46rem] bg-[radial-gradient(ellipse_at_top,rgba(139,92,246,0.30),transparent_62%)]"
      />
      <div
        aria-hidden
        className="pointer-events-none absolute top-[28rem] -right-40 size-[32rem] rounded-full bg-fuchsia-600/15 blur-3xl"
      />

      <header className="relative mx-auto flex max-w-6xl items-center justify-between gap-3 px-5 py-5 md:px-8">
        <Brand />
        <nav aria-label="Landing" className="flex items-center gap-1 sm:gap-2">
          {/* The wrapper hides the link on phones; the button's own display class would win over `hidden`. */}
          <span className="hidden sm:contents">
            <LinkButton to="/" variant="ghost" size="sm">
              Browse songs
            </LinkButton>
          </span>
          {me ? (
            <LinkButton to="/" variant="secondary" size="sm" className="whitespace-nowrap">
              Open the app
            </LinkButton>
          ) : (
            <LinkButton to="/login" variant="ghost" size="sm" className="whitespace-nowrap">
              Sign in
            </LinkButton>
          )}
          <Button size="sm" onClick={toWaitlist} className="whitespace-nowrap">
            Early Access
          </Button>
        </nav>
      </header>

      <main>
        <section className="relative mx-auto grid max-w-6xl items-center gap-12 px-5 pt-10 pb-20 md:px-8 md:pt-16 lg:grid-cols-[1.05fr_0.95fr] lg:gap-16 lg:pt-20">
          <div className="text-center lg:text-left">
            <span className="mb-6 inline-flex items-center gap-2 rounded-full border border-white/10 bg-white/5 px-3 py-1 text-xs font-medium text-zinc-300">
              <Headphones aria-hidden className="size-3.5 text-violet-300" /> Early access
            </span>
            <h1 className="text-4xl font-extrabold tracking-tight text-white sm:text-5xl md:text-6xl">
              Hear it{" "}
              <span className="bg-gradient-to-r from-violet-300 to-fuchsia-300 bg-clip-text text-transparent">
                before
              </span>{" "}
              everyone else.
            </h1>
            <p className="mx-auto mt-5 max-w-xl text-lg font-medium text-zinc-200 lg:mx-0">
              Unheard: where unreleased music gets found and verified.
            </p>
            <p className="mx-auto mt-3 max-w-xl text-base text-zinc-400 lg:mx-0">
              Snippets, leaks and lost sessions, shared by fans and checked by the community, so you know what is real
              before the release date.
            </p>
            <div className="mt-8 flex flex-wrap justify-center gap-3 lg:justify-start">
              <Button size="lg" onClick={toWaitlist}>
                Get Early Access <ArrowRight aria-hidden className="size-4" />
              </Button>
              <LinkButton to="/" variant="secondary" size="lg">
                Browse songs
              </LinkButton>
            </div>
          </div>
          <div className="mx-auto w-full max-w-md lg:max-w-none">
            <DemoPlayer />
          </div>
        </section>

        <section aria-labelledby="features-heading" className="relative mx-auto max-w-6xl px-5 pb-20 md:px-8">
          <h2 id="features-heading" className="sr-only">
            What Unheard does
          </h2>
          <ul className="grid gap-4 md:grid-cols-3">
            {[
              {
                icon: Search,
                title: "Find the unreleased",
                text: "Search snippets and leaks by title or artist, filter by genre and by what drops next.",
              },
              {
                icon: BadgeCheck,
                title: "Verified by listeners",
                text: "Every upload starts pending. Three net upvotes from the community verify it; fakes get reported.",
              },
              {
                icon: CalendarClock,
                title: "Know when it drops",
                text: "Release dates, favourites and the week's trending songs, kept honest by edit suggestions.",
              },
            ].map((f) => (
              <li key={f.title} className="rounded-2xl border border-white/[0.06] bg-zinc-900/50 p-6">
                <span className="grid size-10 place-items-center rounded-xl bg-violet-500/15 text-violet-300">
                  <f.icon aria-hidden className="size-5" />
                </span>
                <h3 className="mt-4 font-semibold text-white">{f.title}</h3>
                <p className="mt-1.5 text-sm text-zinc-400">{f.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section
          id="early-access"
          aria-labelledby="early-access-heading"
          className="relative mx-auto max-w-6xl scroll-mt-8 px-5 pb-24 md:px-8"
        >
          <div className="relative overflow-hidden rounded-3xl border border-white/[0.08] bg-gradient-to-br from-violet-950/70 via-zinc-900/80 to-fuchsia-950/60 p-6 md:p-12">
            <div
              aria-hidden
              className="pointer-events-none absolute -top-24 -left-24 size-72 rounded-full bg-violet-600/25 blur-3xl"
            />
            <div className="relative grid items-center gap-10 md:grid-cols-2">
              <div>
                <span className="inline-flex items-center gap-2 text-sm font-medium text-fuchsia-300">
                  <Sparkles aria-hidden className="size-4" /> Limited spots
                </span>
                <h2 id="early-access-heading" className="mt-3 text-3xl font-bold tracking-tight text-white md:text-4xl">
                  Get early access
                </h2>
                <p className="mt-3 max-w-md text-zinc-300">
                  We let new listeners in a wave at a time. Join the waitlist and we'll e-mail you when it's your turn;
                  sign up with the same address and you're straight in.
                </p>
              </div>
              <div className="rounded-2xl border border-white/[0.08] bg-zinc-950/70 p-5 md:p-6">
                {joined ? (
                  <div role="status" className="flex flex-col items-center gap-3 py-6 text-center">
                    <IconCircle
                      icon={BadgeCheck}
                      className="size-12 bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white"
                    />
                    <p className="text-2xl font-bold text-white">{MESSAGES.waitlistThankYou}</p>
                    <p className="text-sm text-zinc-400">{MESSAGES.waitlistJoined} We'll be in touch soon.</p>
                    <LinkButton to="/register" variant="secondary" size="sm" className="mt-2">
                      Create your account
                    </LinkButton>
                  </div>
                ) : (
                  <WaitlistForm
                    submitLabel="Join the Waitlist"
                    nameRef={(el) => {
                      nameInput.current = el;
                    }}
                    onJoined={() => setJoined(true)}
                  />
                )}
              </div>
            </div>
          </div>
        </section>
      </main>

      <footer className="relative border-t border-white/[0.06]">
        <div className="mx-auto flex max-w-6xl flex-col items-center justify-between gap-4 px-5 py-8 text-sm text-zinc-500 sm:flex-row md:px-8">
          <Brand />
          <nav aria-label="Footer" className="flex gap-5">
            {FOOTER_LINKS.map((l) => (
              <Link key={l.to} to={l.to} className="hover:text-zinc-200">
                {l.label}
              </Link>
            ))}
          </nav>
        </div>
      </footer>
    </div>
  );
}

function DemoPlayer() {
  const tracks = useLandingTracks();
  if (tracks.isPending) {
    return (
      <div
        role="status"
        aria-label="Loading the demo player"
        className="aspect-[4/5] w-full animate-pulse rounded-3xl border border-white/[0.06] bg-zinc-900/60"
      />
    );
  }
  const playable = (tracks.data ?? []).filter((t) => t.audio);
  if (playable.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-3xl border border-white/[0.06] bg-zinc-900/60 px-6 py-16 text-center">
        <Headphones aria-hidden className="size-8 text-violet-300" />
        <p className="font-semibold text-zinc-100">The demo player is taking a break.</p>
        <LinkButton to="/" variant="secondary" size="sm">
          Browse songs instead
        </LinkButton>
      </div>
    );
  }
  return <LandingPlayer tracks={playable.slice(0, 5)} />;
}
