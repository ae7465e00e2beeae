import { ComingSoon, PageHeader } from "../components/page";

/** /artists/:artistId: placeholder until the screen is built. */
export function ArtistPage() {
  return (
    <>
      <PageHeader title="Artist Profile" subtitle="Tracks, followers and links of this artist." />
      <ComingSoon>The artist's profile and tracks will be shown here.</ComingSoon>
    </>
  );
}
