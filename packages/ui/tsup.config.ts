import { defineConfig, type Options } from "tsup";

type EsbuildPlugin = NonNullable<Options["esbuildPlugins"]>[number];

// The tooltip is the one client module: index imports it as a separate file so index itself
// stays a server-safe module and tooltip keeps its "use client" directive.
const externalTooltip: EsbuildPlugin = {
  name: "external-tooltip",
  setup(build) {
    const extension = build.initialOptions.format === "cjs" ? ".cjs" : ".js";
    build.onResolve({ filter: /^\.\/tooltip$/ }, (args) =>
      args.importer.endsWith("src/index.ts")
        ? { path: `./tooltip${extension}`, external: true }
        : null,
    );
  },
};

export default defineConfig([
  {
    entry: {
      index: "src/index.ts",
      tooltip: "src/tooltip/index.ts",
      "icon-names": "src/icons/icon-names.ts",
    },
    format: ["esm", "cjs"],
    dts: { entry: { index: "src/index.ts", "icon-names": "src/icons/icon-names.ts" } },
    clean: true,
    target: "es2022",
    splitting: false,
    treeshake: false,
    external: [
      "react",
      "react-dom",
      "react/jsx-runtime",
      "@radix-ui/react-tooltip",
      "lucide-react",
    ],
    // Only the two brand paths are used; bundling keeps simple-icons out of consumers' installs.
    noExternal: ["simple-icons"],
    esbuildPlugins: [externalTooltip],
  },
  {
    entry: { styles: "src/styles.css" },
    outDir: "dist",
    clean: false,
  },
]);
