import { MESSAGES, POINTS_FOR_VERIFIED_SONG } from "@unheard/shared";
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
  } else if (me?.waitlisted) {
    // Registering is joining (issue 25): a waiting member sees their status, never a form to join again.
    body = (
      <div className="grid gap-6 lg:grid-cols-[minmax(0,28rem)_1fr] lg:items-start">
        <Waiting email={me.email} />
        <Perks />
      </div>
    );
  } else if (joinedAs) {
    body = <Joined email={joinedAs} signedIn={Boolean(me)} />;
  } else {
    body = (
      <div className="grid gap-6 lg:grid-cols-[minmax(0,28rem)_1fr] lg:items-start">
        <Panel>
          <p className="mb-5 text-sm text-zinc-400">
            Leave your name and e-mail and we will let you know when your spot opens.
          </p>
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
      <PageHeader
        title={me?.waitlisted ? "You're on the waitlist" : "Join the Waitlist"}
        subtitle="Unheard opens to new members in waves."
      />
      {body}
    </>
  );
}

/** A waiting member's status: what the waitlist is, what they can do now, and what opens later. */
function Waiting({ email }: { email: string }) {
  return (
    <Panel>
      <div role="status" className="flex items-start gap-3">
        <IconCircle icon={Hourglass} className="size-10 shrink-0 bg-sky-500/15 text-sky-300" iconClassName="size-5" />
        <div className="min-w-0">
          <h2 className="font-semibold text-white">Waiting for approval</h2>
          <p className="mt-1 text-sm text-zinc-400">
            Your account <span className="font-medium break-all text-zinc-200">{email}</span> is in the queue. Admins
            let members in by hand, in waves, to keep the community careful. This page updates by itself when you are
            in.
          </p>
        </div>
      </div>
      <h3 className="mt-5 text-sm font-semibold text-zinc-200">You can already</h3>
      <ul className="mt-2 space-y-1 text-sm text-zinc-400">
        <li>Browse and search every verified song and artist</li>
        <li>Listen to the previews</li>
        <li>Follow artists and edit your profile</li>
      </ul>
      <h3 className="mt-4 text-sm font-semibold text-zinc-200">Once you are in</h3>
      <ul className="mt-2 space-y-1 text-sm text-zinc-400">
        <li>Favourite songs</li>
        <li>Vote pending songs into verified ones</li>
        <li>Upload, report and suggest edits</li>
      </ul>
      <div className="mt-5 flex flex-wrap gap-2">
        <LinkButton to="/" size="sm">
          Browse songs
        </LinkButton>
        <LinkButton to="/profile" size="sm" variant="secondary">
          Your profile
        </LinkButton>
      </div>
    </Panel>
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
      text: `Votes earn points once your account has a record here, and a song you shared getting verified pays ${POINTS_FOR_VERIFIED_SONG}.`,
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
