import { MESSAGES } from "@unheard/shared";
import { RefreshCw } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { isApiError } from "../lib/api/api";
import { toast } from "../lib/toast";
import { Button, LinkButton } from "./button";
import { NotFound } from "./not-found";
import { Notice } from "./notice";
import { PageHeader } from "./page";
import { Spinner } from "./spinner";

/** The fields of a detail query (a song, an artist) that the page's states need. */
type ResourceQuery<T> = { data: T | undefined; error: unknown; isError: boolean; refetch: () => unknown };

/** What the not-found page says of a missing song or artist. */
const NOT_FOUND_TEXT = {
  song: "This track never dropped. The link may be mistyped, or the song may have been removed.",
  artist: "No artist goes by this link. It may be mistyped, or the artist may have been merged into another.",
} as const;

/**
 * The page of the song or artist the address names: it renders `children` with the data once loaded, and
 * before that `title` over a spinner. A 404 shows the not-found page in place, titled 'Song not found' (spec §8),
 * with a way home (issue 25: a redirect with a toast was gone before it could be read), unless `quietNotFound`
 * (this tab just deleted it and is leaving with its own toast); any other failure toasts once and offers a retry.
 */
export function ResourcePage<T>({
  kind,
  id,
  query,
  title,
  quietNotFound = false,
  signInPath,
  children,
}: {
  kind: "song" | "artist";
  /** The id from the address; with `kind` it names the toasts, so each shows once per page. */
  id: string;
  query: ResourceQuery<T>;
  title: string;
  quietNotFound?: boolean;
  /**
   * For a visitor: where logging in leads back here. A song waiting for verification is shown to members only and
   * answers a visitor as a missing one does, so a visitor is offered to log in as well as to go home.
   */
  signInPath?: string;
  children: (data: T) => ReactNode;
}) {
  const notFoundMessage = MESSAGES[`${kind}NotFound`];
  const loadFailedMessage = MESSAGES[`${kind}LoadFailed`];
  const notFound = isApiError(query.error) && query.error.status === 404;

  const failed = query.isError && !notFound && !query.data;
  useEffect(() => {
    if (failed) toast.error(loadFailedMessage, { id: `${kind}-load-failed:${id}` });
  }, [failed, loadFailedMessage, kind, id]);

  if (query.data && !notFound) return children(query.data);
  if (notFound && !quietNotFound) {
    return signInPath ? (
      <NotFound
        title={notFoundMessage}
        message={MESSAGES.songMaybePending}
        action={<LinkButton to={signInPath}>Log in</LinkButton>}
      />
    ) : (
      <NotFound title={notFoundMessage} message={NOT_FOUND_TEXT[kind]} />
    );
  }
  return (
    <>
      <PageHeader title={title} />
      {failed ? (
        <Notice
          tone="error"
          action={
            <Button
              variant="secondary"
              icon={<RefreshCw aria-hidden className="size-4" />}
              onClick={() => void query.refetch()}
            >
              Try again
            </Button>
          }
        >
          {loadFailedMessage}
        </Notice>
      ) : (
        // Also while a song this tab deleted is leaving: the page is on its way home.
        <Spinner label={`Loading ${kind}`} />
      )}
    </>
  );
}
