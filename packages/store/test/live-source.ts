import { randomBytes } from "node:crypto";
import { ValidationError } from "@seed/model";
import { afterAll, beforeAll, inject } from "vitest";
import {
  createLiveSourceDatabase,
  type LiveSourceDatabase,
} from "../../../scripts/throwaway-live-source.mjs";
import type { StoreDialect } from "../src/index.js";
import { admin } from "./actors.js";
import { openTestStore, sourceSettings } from "./helpers.js";

/** The sources key the live-source tests open their stores with. */
export const key = randomBytes(32).toString("base64");

/**
 * A throwaway live source database for the calling test file, made before its tests and dropped
 * after them (`remote` is set from the file's beforeAll on), and how to save it as a source.
 */
export function useLiveSource() {
  const live = {
    remote: undefined as unknown as LiveSourceDatabase,
    /** The form of a source that reads `remote`, with `overrides`. */
    sourceInput: (overrides: Record<string, unknown> = {}) => ({
      name: "Warehouse",
      host: live.remote.host,
      port: live.remote.port,
      database: live.remote.database,
      user: live.remote.user,
      password: live.remote.password,
      ...sourceSettings,
      ...overrides,
    }),
    /** A store on a fresh database with `remote` saved as a source by an admin. */
    storeWithSource: async (dialect: StoreDialect, overrides = {}) => {
      const store = await openTestStore(dialect, { seedDemo: false, sourcesKey: key });
      const source = await store.createSource(live.sourceInput(overrides), admin);
      return { store, source };
    },
  };
  beforeAll(() => {
    live.remote = createLiveSourceDatabase(inject("postgresUrl"));
  });
  afterAll(() => {
    live.remote.drop();
  });
  return live;
}

/** A ValidationError's form and field messages as one string (rethrows anything else). */
export function messageOf(error: unknown): string {
  if (!(error instanceof ValidationError)) throw error;
  return [error.formError ?? "", ...Object.values(error.fieldErrors).flat()].join(" ");
}
