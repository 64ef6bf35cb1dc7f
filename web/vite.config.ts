// The bundle is built into the server package (server/static/), which serves it at `/` and ships it in
// the wheel; .ci/run rebuilds it and fails when the committed copy differs, so the output must depend on
// the sources and package-lock.json only (content hashes in names, no timestamps, no source maps).
import { defineConfig } from "vite";

export default defineConfig({
  base: "/",
  build: {
    outDir: "../server/static",
    emptyOutDir: true,
    assetsDir: "assets",
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rollupOptions: { output: { manualChunks: { codemirror: ["codemirror", "@codemirror/merge"], katex: ["katex"] } } },
  },
  server: { proxy: { "/api": "http://127.0.0.1:8000" } },
});
