import { ComingSoon, PageHeader } from "../components/page";

/** /song-recognition: placeholder until the screen is built. */
export function SongRecognitionPage() {
  return (
    <>
      <PageHeader title="Song Recognition" subtitle="Identify a song from a short recording." />
      <ComingSoon>Recording and matching will be here.</ComingSoon>
    </>
  );
}
