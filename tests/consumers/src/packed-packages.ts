import { inject } from "vitest";

export interface PackedPackage {
  name: string;
  version: string;
  tarball: string;
  files: string[];
  manifest: Record<string, unknown> & {
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    exports?: Record<string, unknown>;
  };
}

export type PublicPackageName = "@seed/ui" | "@seed/charts" | "@seed/cli";

/** The tarball global-setup packed for one package, failing clearly if it is missing. */
export function packedPackage(name: PublicPackageName): PackedPackage {
  const found = inject("packedPackages").find((pkg) => pkg.name === name);
  if (!found)
    throw new Error(`${name} was not packed: is it still a public package under packages/?`);
  return found;
}
