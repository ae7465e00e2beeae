import { type Artist, isSafeLink } from "@unheard/shared";
import { AtSign, Camera, ExternalLink, Globe } from "lucide-react";
import type { ReactNode } from "react";

const LINKS: { key: keyof Artist["socialLinks"]; label: string; icon: ReactNode }[] = [
  { key: "instagram", label: "Instagram", icon: <Camera aria-hidden className="size-4" /> },
  { key: "twitter", label: "Twitter", icon: <AtSign aria-hidden className="size-4" /> },
  { key: "website", label: "Website", icon: <Globe aria-hidden className="size-4" /> },
];

/** The artist's instagram, twitter and website; only http(s) links are ever rendered, in a new tab. */
export function ArtistSocialLinks({ links }: { links: Artist["socialLinks"] }) {
  const shown = LINKS.flatMap((l) => {
    const href = links[l.key];
    return isSafeLink(href) ? [{ ...l, href }] : [];
  });
  if (shown.length === 0) return null;
  return (
    <ul aria-label="Social links" className="flex flex-wrap gap-2">
      {shown.map((l) => (
        <li key={l.key}>
          <a
            href={l.href}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex h-8 items-center gap-1.5 rounded-full border border-white/10 bg-white/5 px-3 text-sm text-zinc-200 transition-colors hover:bg-white/10 hover:text-white focus-visible:outline-2 focus-visible:outline-violet-400"
          >
            {l.icon}
            {l.label}
            <ExternalLink aria-hidden className="size-3 text-zinc-500" />
          </a>
        </li>
      ))}
    </ul>
  );
}
