import { MESSAGES } from "@unheard/shared";
import { BadgeCheck, CircleCheck, Hourglass, PartyPopper, ShieldCheck, Upload, Vote } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { toast } from "../../lib/toast";
import { LinkButton } from "../../ui/button";
import { IconCircle } from "../../ui/icon-circle";
import { Notice } from "../../ui/notice";
import { PageHeader, Panel } from "../../ui/page";
import { Spinner } from "../../ui/spinner";
import { useMe } from "../accounts/me";
import { WaitlistForm } from "./waitlist-form";

/**
 * /waitlist: the public join form. The waitlist gate sends held users here; they see that their
 * account waits for approval, and the moment an admin lets them in (the live `me` event) a
 * "You're in!" with a way home.
 */
export function WaitlistPage() {
  const { me, isLoading } = useMe();
  const [joinedAs, setJoinedAs] = useState<string | null>(null);
  // Remembers that this visit started on hold, so the approval can be celebrated when it arrives.
  const [wasHeld, setWasHeld] = useState(false);
  useEffect(() => {
    if (me?.waitlisted) setWasHeld(true);
  }, [me?.waitlisted]);

  let body: ReactNode;
  if (isLoading) {
    body = <Spinner />;
  } else if (me && !me.waitlisted && wasHeld) {
    body = <YoureIn />;
  } else if (me && !me.waitlisted) {
    body = (
      <Notice
        tone="success"
        action={
          <LinkButton to="/" size="sm">
            Go to Home
          </LinkButton>
        }
      >
        Your account already has full access. There is no need to join the waitlist.
      </Notice>
    );
  } else if (joinedAs) {
    body = <Joined email={joinedAs} signedIn={Boolean(me)} />;
  } else {
    body = (
      <div className="grid gap-6 lg:grid-cols-[minmax(0,28rem)_1fr] lg:items-start">
        <Panel>
          {me?.waitlisted ? null : (
            <p className="mb-5 text-sm text-zinc-400">
              Leave your name and e-mail and we will let you know when your spot opens.
            </p>
          )}
          <WaitlistForm
            defaultValues={me ? { name: me.username, email: me.email } : undefined}
            onJoined={(values, message) => {
              toast.success(message);
              setJoinedAs(values.email);
            }}
          />
        </Panel>
        <Perks />
      </div>
    );
  }

  return (
    <>
      <PageHeader title="Join the Waitlist" subtitle="Unheard opens to new members in waves." />
      {me?.waitlisted ? (
        <Notice tone="info" className="mb-6">
          <span className="inline-flex items-center gap-1.5 font-medium">
            <Hourglass aria-hidden className="size-4" /> You're on the waitlist.
          </span>{" "}
          Your account <span className="font-medium">{me.email}</span> is waiting for approval. You can browse songs and
          edit your profile; favourites, voting and uploads open once an admin lets you in. This page updates by itself
          when that happens.
        </Notice>
      ) : null}
      {body}
    </>
  );
}

function YoureIn() {
  return (
    <Panel className="flex flex-col items-center gap-4 py-12 text-center">
      <IconCircle
        icon={PartyPopper}
        className="size-14 bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white shadow-lg shadow-fuchsia-500/25"
        iconClassName="size-7"
      />
      <h2 className="text-2xl font-bold text-white">You're in!</h2>
      <p className="max-w-md text-sm text-zinc-400">
        An admin just let you in. Favourites, voting on pending songs and uploads are all open to you now.
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <LinkButton to="/">Go to Home</LinkButton>
        <LinkButton to="/pending" variant="secondary">
          Vote on pending songs
        </LinkButton>
      </div>
    </Panel>
  );
}

function Joined({ email, signedIn }: { email: string; signedIn: boolean }) {
  return (
    <Panel className="flex flex-col items-center gap-4 py-12 text-center">
      <IconCircle icon={CircleCheck} className="size-14 bg-emerald-500/15 text-emerald-300" iconClassName="size-7" />
      <h2 className="text-2xl font-bold text-white">{MESSAGES.waitlistJoined}</h2>
      <p className="max-w-md text-sm text-zinc-400">
        We will write to <span className="font-medium text-zinc-200">{email}</span> when your spot opens.
        {signedIn ? " Your account gets in as soon as an admin approves it." : " Meanwhile, have a listen around."}
      </p>
      <div className="flex flex-wrap justify-center gap-2">
        <LinkButton to="/" variant="secondary">
          Browse songs
        </LinkButton>
        {signedIn ? null : <LinkButton to="/register">Create your account</LinkButton>}
      </div>
    </Panel>
  );
}

function Perks() {
  const perks = [
    { icon: Vote, title: "Verify leaks", text: "Upvote real songs and flag fakes; three net votes verify a song." },
    { icon: Upload, title: "Share finds", text: "Upload unreleased tracks you have found, with artists and dates." },
    {
      icon: BadgeCheck,
      title: "Earn points",
      text: "Every vote counts, and a song you shared getting verified pays 200.",
    },
    {
      icon: ShieldCheck,
      title: "A careful community",
      text: "Reports and edit suggestions keep the catalogue honest.",
    },
  ];
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {perks.map((p) => (
        <li key={p.title} className="rounded-2xl border border-white/[0.06] bg-zinc-900/40 p-4">
          <p.icon aria-hidden className="size-5 text-violet-300" />
          <p className="mt-2 font-semibold text-zinc-100">{p.title}</p>
          <p className="mt-1 text-sm text-zinc-400">{p.text}</p>
        </li>
      ))}
    </ul>
  );
}
