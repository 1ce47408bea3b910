import { defineConfig } from "tsup";

export default defineConfig({
  entry: { cli: "src/cli.ts" },
  format: ["esm"],
  clean: true,
  target: "node20",
  platform: "node",
  sourcemap: true,
  // One self-contained file: the published package needs nothing installed beside it (the
  // workspace's @seed/model, its zod and yaml, and diff are bundled in).
  noExternal: [/.*/],
  banner: {
    // yaml's Node build is CommonJS and requires Node's modules; an ES module has no require.
    js: '#!/usr/bin/env node\nimport { createRequire as seedCreateRequire } from "node:module";\nconst require = seedCreateRequire(import.meta.url);',
  },
});
