import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// In development Vite serves the page and forwards /api to the Fastify server.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
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
