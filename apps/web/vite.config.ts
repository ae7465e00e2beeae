import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { type BuiltChunk, routeChunks, routeChunksComment, screenModules } from "./src/build/route-chunks";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/**
 * Issue 38: what a server-rendered page needs before a press on it works. index.html gets the early-press script
 * (src/build/early-press.js: presses before hydration are held and replayed; an async script in the head, emitted
 * under a content hash so it is cached like the other assets) and, in a comment, the files each page's screen needs
 * beyond the entry (src/build/route-chunks.ts), which the server turns into that page's modulepreload links.
 */
function serverRenderedPages(): Plugin {
  const early = readFileSync(path.join(HERE, "src/build/early-press.js"), "utf8");
  const earlyFile = `assets/early-press-${createHash("sha256").update(early).digest("base64url").slice(0, 8)}.js`;
  const router = path.join(HERE, "src/app/router.tsx");
  let base = "/";
  return {
    name: "unheard-server-rendered-pages",
    apply: "build",
    configResolved(config) {
      base = config.base;
    },
    generateBundle() {
      this.emitFile({ type: "asset", fileName: earlyFile, source: early });
    },
    transformIndexHtml: {
      order: "post",
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const chunks: BuiltChunk[] = Object.values(ctx.bundle).flatMap((out) =>
          out.type === "chunk"
            ? [
                {
                  fileName: out.fileName,
                  facadeModuleId: out.facadeModuleId,
                  isEntry: out.isEntry,
                  imports: out.imports,
                },
              ]
            : [],
        );
        const screens = Object.fromEntries(
          Object.entries(screenModules(readFileSync(router, "utf8"))).map(([route, module]) => [
            route,
            path.resolve(path.dirname(router), module),
          ]),
        );
        const comment = routeChunksComment(routeChunks(screens, chunks, base));
        return {
          html: html.replace("</head>", `  ${comment}\n  </head>`),
          tags: [{ tag: "script", attrs: { async: true, src: `${base}${earlyFile}` }, injectTo: "head-prepend" }],
        };
      },
    },
  };
}

// In development Vite serves the page and forwards /api to the Fastify server.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss(), ...(isSsrBuild ? [] : [serverRenderedPages()])],
  server: {
    port: 5173,
    proxy: { "/api": { target: process.env.API_URL ?? "http://127.0.0.1:3000", changeOrigin: false } },
  },
  // The server renderer (src/entry-server.tsx, decision 026) carries its own copy of React and the libraries, built
  // for production whatever NODE_ENV the server runs under: React's development build renders several times slower.
  ...(isSsrBuild
    ? { ssr: { noExternal: true }, define: { "process.env.NODE_ENV": JSON.stringify("production") } }
    : {}),
  build: {
    outDir: isSsrBuild ? "dist-ssr" : "dist",
    sourcemap: true,
    copyPublicDir: !isSsrBuild,
    rolldownOptions: {
      treeshake: {
        // @unheard/shared is side-effect free (constants, messages, zod schemas), but its package does not say so:
        // without this, importing MESSAGES from its index would bring every schema, and zod, into the first load.
        moduleSideEffects: (id) => (/[\\/]packages[\\/]shared[\\/]src[\\/]/.test(id) ? false : undefined),
      },
    },
  },
}));
