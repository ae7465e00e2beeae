import { POINTS_FOR_VERIFIED_SONG, POINTS_PER_VOTE, VERIFICATION_THRESHOLD, VOTE_POINTS_NOTE } from "@unheard/shared";
import { BadgeCheck, Database, Heart, ShieldCheck, Trophy } from "lucide-react";
import { Link } from "react-router";
import { IconSection } from "../../ui/icon-section";
import { PageHeader } from "../../ui/page";
import { RoleBadge } from "../accounts/role-badge";

/** /about: what Unheard is, how verification and points work, and what each role may do. */
export function AboutPage() {
  return (
    <>
      <PageHeader
        title="About Unheard"
        documentTitle="About"
        subtitle="A community for music that hasn't dropped yet."
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <IconSection compact icon={Heart} tint="text-fuchsia-300" title="What Unheard is">
          <p>
            Unheard is where fans discover, track and verify unreleased songs: leaks, snippets and tracks artists have
            teased but not released. Browse and search without an account; sign in to favourite songs, upload, vote and
            follow artists.
          </p>
        </IconSection>
        <IconSection compact icon={BadgeCheck} tint="text-emerald-300" title="How a song gets verified">
          <p>
            Every upload starts as <strong className="text-zinc-100">pending</strong>. Signed-in members upvote songs
            they believe are real and correctly labelled, and downvote (with a reason) those that are not.
          </p>
          <p>
            When upvotes minus downvotes reach <strong className="text-zinc-100">{VERIFICATION_THRESHOLD}</strong>, the
            song is verified. If the net later falls below {VERIFICATION_THRESHOLD}, it returns to pending.
          </p>
        </IconSection>
        <IconSection compact icon={Trophy} tint="text-amber-300" title="How points are earned">
          <ul className="flex list-disc flex-col gap-1.5 pl-5 marker:text-zinc-600">
            <li>
              <strong className="text-zinc-100">+{POINTS_PER_VOTE}</strong> for each vote that counts toward
              verification. {VOTE_POINTS_NOTE}
            </li>
            <li>
              <strong className="text-zinc-100">−{POINTS_PER_VOTE}</strong> when you withdraw a vote, so toggling earns
              nothing.
            </li>
            <li>
              <strong className="text-zinc-100">+{POINTS_FOR_VERIFIED_SONG}</strong> to the uploader when their song
              becomes verified.
            </li>
          </ul>
        </IconSection>
        <IconSection compact icon={ShieldCheck} tint="text-violet-300" title="What the roles may do">
          <dl className="flex flex-col gap-3">
            <div>
              <dt>
                <RoleBadge value="user" />
              </dt>
              <dd className="mt-1">Favourite, vote, report others' songs, suggest edits, follow artists and upload.</dd>
            </div>
            <div>
              <dt>
                <RoleBadge value="verified_contributor" />
              </dt>
              <dd className="mt-1">A trusted member; their edit requests are marked for quick admin review.</dd>
            </div>
            <div>
              <dt>
                <RoleBadge value="admin" />
              </dt>
              <dd className="mt-1">Reviews reports and edit suggestions, edits any song and manages the waitlist.</dd>
            </div>
            <div>
              <dt>
                <RoleBadge value="super_admin" />
              </dt>
              <dd className="mt-1">Everything admins do, plus deleting songs and the audio fingerprint tools.</dd>
            </div>
          </dl>
        </IconSection>
        <IconSection compact wide icon={Database} tint="text-sky-300" title="Open data">
          <p>
            Every verified song is open data: download the whole catalogue as CSV or JSON, or query songs, artists and
            search through the public API. No account or key needed.
          </p>
          <p>
            <Link
              to="/developers"
              className="font-medium text-violet-300 underline-offset-4 hover:text-violet-200 hover:underline"
            >
              Developers: exports and API
            </Link>
          </p>
        </IconSection>
      </div>
    </>
  );
}
