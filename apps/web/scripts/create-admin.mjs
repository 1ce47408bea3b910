#!/usr/bin/env node
// Creates an admin account from the command line (first admin, or recovery when locked out).
// Usage: node scripts/create-admin.mjs --email you@example.com [--name "Your Name"]
//   The password comes from SEED_ADMIN_PASSWORD or, if unset, from stdin (one line, piped or typed).
// Reads the same SEED_DATA_DIR / DATABASE_URL / BETTER_AUTH_SECRET as the web app.
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { openStore } from "@seed/store";
import { betterAuth } from "better-auth";
import { getMigrations } from "better-auth/db/migration";
import {
  createCliAuthOptions,
  loadAuthSecret,
  resolveDataDir,
} from "../src/server/auth-options.mjs";
import { passwordProblem } from "../src/server/password-policy.mjs";

const usage =
  "Usage: node scripts/create-admin.mjs --email <email> [--name <name>]\n" +
  "Password: SEED_ADMIN_PASSWORD, or one line on stdin. At least 12 characters, not a common password.";

/** @returns {Promise<string>} */
async function readPasswordFromStdin() {
  if (process.stdin.isTTY) process.stderr.write("Password (at least 12 characters): ");
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    lines.close();
    return line;
  }
  return "";
}

async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: "string" },
      name: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const email = (values.email ?? process.env.SEED_ADMIN_EMAIL ?? "").trim();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) {
    console.error(`An email address is needed (--email or SEED_ADMIN_EMAIL).\n${usage}`);
    return 2;
  }
  const password = process.env.SEED_ADMIN_PASSWORD ?? (await readPasswordFromStdin());
  const problem = passwordProblem(password);
  if (problem) {
    console.error(`The password is refused: ${problem}`);
    return 2;
  }
  const name = (values.name ?? email.split("@")[0] ?? "Admin").trim() || "Admin";

  const store = await openStore({
    databaseUrl: process.env.DATABASE_URL ?? null,
    dataDir: resolveDataDir(),
    // The server may be running and holding the dataset rows' DuckDB file: only users are needed.
    stateOnly: true,
  });
  try {
    const secret = loadAuthSecret(resolveDataDir());
    // No request ever reaches this instance, so any origin does; it only silences a warning.
    const env = {
      ...process.env,
      BETTER_AUTH_URL: process.env.BETTER_AUTH_URL || "http://localhost",
    };
    const auth = betterAuth(createCliAuthOptions({ store, secret, env }));
    await store.runExclusive(async () => {
      const { runMigrations } = await getMigrations(auth.options);
      await runMigrations();
    });
    const context = await auth.$context;
    if (await context.internalAdapter.findUserByEmail(email)) {
      console.error(`A user with the email ${email} already exists.`);
      return 1;
    }
    const { user } = await auth.api.createUser({ body: { email, password, name, role: "admin" } });
    await store.recordAuditEvent({
      // The command line acts as an admin: only users.manage may record user events.
      actor: { id: "cli", email: "create-admin@cli.invalid", role: "admin" },
      action: "user.create",
      entityType: "user",
      entityId: user.id,
      detail: { email, role: "admin", via: "cli" },
    });
    // An admin exists now: setup tokens printed by a running server stop working.
    await store.endSetup();
    console.log(`Created admin ${email}.`);
    return 0;
  } finally {
    await store.close();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
