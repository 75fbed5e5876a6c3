import { cloudflare } from '@cloudflare/vite-plugin';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// recharts and its dependencies: large, and used only by the report pages.
const CHART_LIBRARY =
  /node_modules[\\/](recharts|@mantine[\\/]charts|d3-|victory-vendor|es-toolkit|decimal\.js|@reduxjs|redux|immer|reselect|eventemitter3|tiny-invariant)/;

export default defineConfig({
  plugins: [react(), cloudflare()],
  // Maps are written for ops (dist/client/assets/*.map) but not linked from the bundles, and the
  // Worker refuses to serve them (src/worker/assets.ts).
  // A lazy page's JavaScript is not announced with <link rel="modulepreload"> tags, only its CSS:
  // with the code in the browser's cache, inserting those tags ran in one long task (half a second
  // on Lighthouse's slow phone) before the first frame; the browser finds the same files from the
  // page's own imports instead (docs/decisions.md#performance-budgets).
  build: { sourcemap: 'hidden', modulePreload: { resolveDependencies: (_file, deps) => deps.filter((dep) => dep.endsWith('.css')) } },
  environments: {
    // The Worker, minified: what Cloudflare loads on each cold start, and held to a size budget
    // (docs/decisions.md#performance-budgets); the hidden source map keeps stack traces readable.
    staff_app: { build: { minify: true } },
    client: {
      build: {
        // The manifest lets scripts/bench measure what each page downloads.
        manifest: true,
        rolldownOptions: {
          // Needed by includeDependenciesRecursively: false; the entry exports nothing anyway.
          preserveEntrySignatures: 'allow-extension',
          output: {
            // One chunk of its own for the chart library, fetched only by the pages that chart,
            // and without React, which the chart library imports but the entry already has.
            codeSplitting: { includeDependenciesRecursively: false, groups: [{ name: 'charts', test: CHART_LIBRARY }] },
          },
        },
      },
    },
  },
});
