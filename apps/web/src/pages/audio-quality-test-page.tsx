import { ComingSoon, PageHeader } from "../components/page";

/** /audio-quality-test: placeholder until the screen is built. */
export function AudioQualityTestPage() {
  return (
    <>
      <PageHeader title="Audio Quality Test" subtitle="Check whether an audio file is likely a real, complete track." />
      <ComingSoon>The quality report will be here.</ComingSoon>
    </>
  );
}
