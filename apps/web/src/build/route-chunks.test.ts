import { readFileSync } from "node:fs";
import path from "node:path";
import { PAGE_ROUTES } from "@unheard/shared";
import { describe, expect, it } from "vitest";
import { type BuiltChunk, routeChunks, routeChunksComment, screenModules } from "./route-chunks";

const ROUTER = path.resolve(import.meta.dirname, "../app/router.tsx");

describe("the files each page's screen needs (issue 38: modulepreload)", () => {
  it("finds every page route's screen module in the router's source", () => {
    const screens = screenModules(readFileSync(ROUTER, "utf8"));
    // Every page the server answers for has its screen, so each can be preloaded.
    expect(Object.keys(screens).sort()).toEqual(Object.keys(PAGE_ROUTES).sort());
    expect(screens.song).toBe("../features/songs/song-page");
    expect(screens.home).toBe("../features/songs/home-page");
  });

  it("lists a screen's chunk and what it imports, less what the entry loads, each once", () => {
    const chunks: BuiltChunk[] = [
      {
        fileName: "assets/index-1.js",
        facadeModuleId: "/w/src/main.tsx",
        isEntry: true,
        imports: ["assets/react-2.js"],
      },
      { fileName: "assets/react-2.js", facadeModuleId: null, isEntry: false, imports: [] },
      {
        fileName: "assets/song-page-3.js",
        facadeModuleId: "/w/src/features/songs/song-page.tsx",
        isEntry: false,
        imports: ["assets/react-2.js", "assets/vote-4.js", "assets/cover-5.js"],
      },
      { fileName: "assets/vote-4.js", facadeModuleId: null, isEntry: false, imports: ["assets/cover-5.js"] },
      { fileName: "assets/cover-5.js", facadeModuleId: null, isEntry: false, imports: [] },
      {
        fileName: "assets/about-page-6.js",
        facadeModuleId: "/w/src/features/about/about-page.tsx",
        isEntry: false,
        imports: ["assets/react-2.js"],
      },
    ];
    const screens = {
      song: "/w/src/features/songs/song-page",
      about: "/w/src/features/about/about-page.tsx",
      missing: "/w/src/features/none",
    };
    expect(routeChunks(screens, chunks)).toEqual({
      song: ["/assets/song-page-3.js", "/assets/vote-4.js", "/assets/cover-5.js"],
      about: ["/assets/about-page-6.js"],
    });
  });

  it("carries the list in a comment the HTML parser cannot end early, each file once", () => {
    const comment = routeChunksComment({ song: ["/assets/a--b.js", "/assets/c.js"], about: ["/assets/c.js"] });
    expect(comment).toBe(
      '<!--unheard:route-chunks {"files":["/assets/a--b.js","/assets/c.js"],"routes":{"song":[0,1],"about":[1]}}-->',
    );
    expect(comment.slice(4, -3)).not.toContain(">");
  });
});
