import { Compass } from "lucide-react";
import type { ReactNode } from "react";
import { LinkButton } from "./button";
import { IconCircle } from "./icon-circle";
import { usePageTitle } from "./page";

/**
 * The 404 screen: for addresses that match no route, and in place of a song or artist that is not there
 * (`title`, `message`). `action` goes first (e.g. "Log in"); there is always a way home.
 */
export function NotFound({
  title = "Page not found",
  message = "This track never dropped. The address may be mistyped, or the page may have moved.",
  action,
}: {
  title?: string;
  message?: ReactNode;
  action?: ReactNode;
}) {
  usePageTitle(title);
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
      <IconCircle icon={Compass} className="size-14 bg-violet-500/15 text-violet-300" iconClassName="size-7" />
      <p className="text-sm font-semibold tracking-widest text-violet-300">404</p>
      <h1 className="text-2xl font-bold tracking-tight text-white md:text-3xl">{title}</h1>
      <p className="text-sm text-zinc-400">{message}</p>
      <div className="flex flex-wrap justify-center gap-2">
        {action}
        <LinkButton to="/" variant={action ? "secondary" : "primary"}>
          Go Home
        </LinkButton>
        {action ? null : (
          <LinkButton to="/about" variant="secondary">
            About Unheard
          </LinkButton>
        )}
      </div>
    </div>
  );
}
