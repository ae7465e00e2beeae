import { MESSAGES, TOAST_REDIRECT_DELAY_MS } from "@unheard/shared";
import { RefreshCw } from "lucide-react";
import { type ReactNode, useEffect } from "react";
import { useNavigate } from "react-router";
import { isApiError } from "../lib/api/api";
import { toast } from "../lib/toast";
import { Button, LinkButton } from "./button";
import { Notice } from "./notice";
import { PageHeader } from "./page";
import { Spinner } from "./spinner";

/** The fields of a detail query (a song, an artist) that the page's states need. */
type ResourceQuery<T> = { data: T | undefined; error: unknown; isError: boolean; refetch: () => unknown };

/**
 * The page of the song or artist the address names: it renders `children` with the data once loaded, and
 * before that `title` over a spinner. Spec §8: a 404 toasts 'Song not found' (unless `quietNotFound`, e.g. this
 * tab just deleted it) and goes home after the toast delay; any other failure toasts once and offers a retry.
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
   * answers a visitor as a missing one does, so a visitor is offered to log in instead of being taken home.
   */
  signInPath?: string;
  children: (data: T) => ReactNode;
}) {
  const navigate = useNavigate();
  const notFoundMessage = MESSAGES[`${kind}NotFound`];
  const loadFailedMessage = MESSAGES[`${kind}LoadFailed`];
  const notFound = isApiError(query.error) && query.error.status === 404;

  useEffect(() => {
    if (!notFound || quietNotFound) return;
    toast.error(notFoundMessage, { id: `${kind}-not-found:${id}` });
    if (signInPath) return;
    const timer = window.setTimeout(() => void navigate("/", { replace: true }), TOAST_REDIRECT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [notFound, quietNotFound, notFoundMessage, kind, id, navigate, signInPath]);

  const failed = query.isError && !notFound && !query.data;
  useEffect(() => {
    if (failed) toast.error(loadFailedMessage, { id: `${kind}-load-failed:${id}` });
  }, [failed, loadFailedMessage, kind, id]);

  if (query.data && !notFound) return children(query.data);
  return (
    <>
      <PageHeader title={title} />
      {notFound && signInPath ? (
        <Notice
          tone="error"
          action={
            <LinkButton variant="secondary" to={signInPath}>
              Log in
            </LinkButton>
          }
        >
          {MESSAGES.songMaybePending}
        </Notice>
      ) : notFound ? (
        <Notice tone="error">{notFoundMessage}. Taking you home…</Notice>
      ) : failed ? (
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
        <Spinner label={`Loading ${kind}`} />
      )}
    </>
  );
}
