// Build-time helpers (vite.config.ts), pure so the unit tests can hold them. Issue 38: a server-rendered page's
// buttons did nothing until the browser had loaded the app, then (only then) the page's own screen, one round trip
// after the other. The build lists, for each page, the files of its screen; the server puts them in the page's head
// as <link rel="modulepreload"> (apps/server/src/modules/seo/page-head.ts), so they load alongside the app.

/**
 * The comment in index.html that carries the list: `<!--unheard:route-chunks {"files":["/assets/…"],"routes":
 * {"song":[0,3]}}-->` (routeChunksComment).
 */
export const ROUTE_CHUNKS_MARK = "unheard:route-chunks";

/**
 * The screen module of each page route, as the router's source names them: `screen(P.song, () =>
 * import("../features/songs/song-page"), …)` gives `song: "../features/songs/song-page"` (relative to the router).
 * The catch-all 404 (`screen("*", …)`) has no route name and is left out.
 */
export function screenModules(routerSource: string): Record<string, string> {
  const screens: Record<string, string> = {};
  const pattern = /screen\(\s*P\.(\w+)\s*,\s*\(\)\s*=>\s*import\(\s*"([^"]+)"\s*\)/g;
  for (const [, route, module] of routerSource.matchAll(pattern)) {
    if (route && module) screens[route] = module;
  }
  return screens;
}

/** A built JavaScript chunk, as the bundler describes it (the fields used here). */
export type BuiltChunk = {
  fileName: string;
  /** The module the chunk stands for (absolute path), or null for a shared chunk. */
  facadeModuleId: string | null;
  isEntry: boolean;
  /** The chunks it imports statically (file names). */
  imports: readonly string[];
};

/** A module path without its extension: `/a/b/song-page.tsx` and `/a/b/song-page` name one module. */
const withoutExtension = (id: string) => id.replace(/\.[cm]?[jt]sx?$/, "");

/**
 * For each route, the files its screen needs beyond what the entry loads already (index.html preloads those): its
 * chunk first, then the chunks it imports, depth first, each once. `screens` gives each route's module as an absolute
 * path (with or without its extension); `base` is the public path of the files ("/").
 */
export function routeChunks(
  screens: Record<string, string>,
  chunks: readonly BuiltChunk[],
  base = "/",
): Record<string, string[]> {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const closure = (start: string, into: Set<string>) => {
    const stack = [start];
    while (stack.length > 0) {
      const file = stack.pop();
      if (file === undefined || into.has(file)) continue;
      into.add(file);
      const chunk = byFile.get(file);
      if (chunk) stack.push(...[...chunk.imports].reverse());
    }
    return into;
  };
  const loaded = new Set<string>();
  for (const entry of chunks.filter((c) => c.isEntry)) closure(entry.fileName, loaded);
  const byModule = new Map(
    chunks.filter((c) => c.facadeModuleId).map((c) => [withoutExtension(c.facadeModuleId ?? ""), c.fileName]),
  );
  const out: Record<string, string[]> = {};
  for (const [route, module] of Object.entries(screens)) {
    const file = byModule.get(withoutExtension(module));
    if (!file) continue;
    const files = [...closure(file, new Set())].filter((f) => !loaded.has(f));
    if (files.length > 0) out[route] = files.map((f) => `${base}${f}`);
  }
  return out;
}

/**
 * The comment that carries `chunks` in index.html: each file once, and each route's files by their place in that
 * list (the screens share most of theirs; the comment is sent as it is on pages without a head of their own). The
 * JSON holds no `-->`: file names have no `>`.
 */
export function routeChunksComment(chunks: Record<string, string[]>): string {
  const files = [...new Set(Object.values(chunks).flat())];
  const at = new Map(files.map((f, i) => [f, i]));
  const routes = Object.fromEntries(
    Object.entries(chunks).map(([route, list]) => [route, list.map((f) => at.get(f) ?? -1)]),
  );
  return `<!--${ROUTE_CHUNKS_MARK} ${JSON.stringify({ files, routes })}-->`;
}
