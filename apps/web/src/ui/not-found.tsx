import { Compass } from "lucide-react";
import { LinkButton } from "./button";
import { IconCircle } from "./icon-circle";
import { usePageTitle } from "./page";

/** The 404 screen for addresses that match no route. */
export function NotFound() {
  usePageTitle("Page not found");
  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-4 py-16 text-center">
      <IconCircle icon={Compass} className="size-14 bg-violet-500/15 text-violet-300" iconClassName="size-7" />
      <p className="text-sm font-semibold tracking-widest text-violet-300">404</p>
      <h1 className="text-2xl font-bold tracking-tight text-white md:text-3xl">Page not found</h1>
      <p className="text-sm text-zinc-400">
        This track never dropped. The address may be mistyped, or the page may have moved.
      </p>
      <div className="flex gap-2">
        <LinkButton to="/">Go Home</LinkButton>
        <LinkButton to="/about" variant="secondary">
          About Unheard
        </LinkButton>
      </div>
    </div>
  );
}
