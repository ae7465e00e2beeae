import { matchPageRoute, PAGE_ROUTES } from "@unheard/shared";
import { matchRoutes, type RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { routes } from "./router";

/** Every path the route tree renders a page at, joined from its layouts ("" for the index). */
function pagePaths(tree: RouteObject[], parent = ""): string[] {
  return tree.flatMap((route) => {
    const path = route.index ? parent : [parent, route.path].filter(Boolean).join("/");
    const own = route.index || (route.path !== undefined && !route.children) ? [path] : [];
    return [...own, ...pagePaths(route.children ?? [], path)];
  });
}

describe("the router's pages (issue 25)", () => {
  it("are exactly the shared PAGE_ROUTES the server answers 200 for, plus the catch-all 404", () => {
    const paths = pagePaths(routes);
    expect(paths.filter((p) => p !== "*").sort()).toEqual(Object.values(PAGE_ROUTES).sort());
    expect(paths).toContain("*");
  });

  it("match addresses the way the router does", () => {
    expect(matchPageRoute("/")).toEqual({ route: "home", params: {} });
    expect(matchPageRoute("/song/abc")).toEqual({ route: "song", params: { id: "abc" } });
    expect(matchPageRoute("/song/a%20b%2Fc/")).toEqual({ route: "song", params: { id: "a b/c" } });
    expect(matchPageRoute("/songs/x/edit")).toEqual({ route: "songEdit", params: { id: "x" } });
    const samples = [
      ...Object.values(PAGE_ROUTES).map((p) => `/${p.replaceAll(/:[\w-]+/g, "some-id")}`),
      ...["/ABOUT", "/about/", "/about//", "/Song/%41b", "/song/a%2Fb", "/song/%E0%A4%A", "/artists/x/"],
      ...["/nope", "/song", "/song/", "/song/a/b", "/about/more", "/admin", "//about", "/songs/x", "/index.html"],
    ];
    for (const url of samples) {
      const leaf = matchRoutes(routes, url)?.at(-1);
      const routerFound = leaf !== undefined && leaf.route.path !== "*";
      expect(matchPageRoute(url) !== undefined, url).toBe(routerFound);
      if (routerFound) expect(matchPageRoute(url)?.params, url).toEqual(leaf.params);
    }
  });
});
