import { ComingSoon, PageHeader } from "../components/page";

/** /upload: placeholder until the screen is built. */
export function UploadPage() {
  return (
    <>
      <PageHeader title="Upload Song" subtitle="Share an unreleased song with the community." />
      <ComingSoon>The upload form will be here.</ComingSoon>
    </>
  );
}
