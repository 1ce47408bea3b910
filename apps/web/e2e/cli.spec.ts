import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { expectAxeClean } from "./content-support";
import { apiTokenOf } from "./openapi-client";
import { appBaseURL } from "./support";

// The seed CLI (issue 30) against the running app: a Git-style round trip of a dashboard file —
// pull, edit, validate, diff, push — with a token made in /admin/tokens.

const cli = path.resolve(import.meta.dirname, "../../../packages/cli/dist/cli.js");
const run = promisify(execFile);

async function seed(args: string[], env: Record<string, string>) {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

test("pull, edit, validate, diff and push a dashboard file with the seed CLI", async ({
  browser,
}) => {
  const { secret: token, context, page } = await apiTokenOf(browser, "editor", "write");
  // The tokens page with a secret on show and a token listed: labelled and axe-clean.
  await expectAxeClean(page);
  await context.close();
  const env = { SEED_URL: appBaseURL(), SEED_TOKEN: token };
  const dir = mkdtempSync(path.join(tmpdir(), "seed-cli-e2e-"));

  // A dashboard of its own, so other tests' pages are left alone.
  const slug = `cli-${Date.now().toString(36)}`;
  const file = path.join(dir, `${slug}.yaml`);
  writeFileSync(
    file,
    `format: seed.dashboard/v1\nslug: ${slug}\ntitle: Kept in Git\ntiles:\n  - { key: note, kind: text, markdown: From the CLI }\n`,
  );
  expect((await seed(["validate", file], env)).code).toBe(0);
  expect((await seed(["diff", file], env)).stdout).toContain("is not on the server yet");
  const created = await seed(["push", file], env);
  expect(created.stdout).toContain(`created (${slug}, version 1)`);

  const pulled = await seed(["pull", slug, "--dir", dir], env);
  expect(pulled.code).toBe(0);
  const text = readFileSync(file, "utf8");
  expect(text).toContain("layout:\n  note: { x: 0, y: 0, w: 6, h: 2 }");
  expect(await seed(["diff", file], env)).toMatchObject({ code: 0 });

  writeFileSync(file, text.replace("title: Kept in Git", "title: Edited in Git"));
  const changed = await seed(["diff", file], env);
  expect(changed.code).toBe(1);
  expect(changed.stdout).toContain("-title: Kept in Git\n+title: Edited in Git");
  expect((await seed(["push", file], env)).stdout).toContain(`updated (${slug}, version 2)`);
  expect((await seed(["push", file], env)).stdout).toContain(`unchanged (${slug}, version 2)`);

  // A broken file is caught before anything is sent.
  writeFileSync(file, text.replace("kind: text", "kind: gauge"));
  const refused = await seed(["push", file], env);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain(`${file}:`);
  expect(refused.stderr).toContain("Nothing was pushed");
  expect((await seed(["pull", slug, "--dir", dir], env)).stdout).toContain("updated");
  expect(readFileSync(file, "utf8")).toContain("title: Edited in Git");

  // No token: a clear refusal, not a stack trace.
  const anonymous = await seed(["pull", slug], {
    SEED_URL: appBaseURL(),
    SEED_TOKEN: "seed_pat_x",
  });
  expect(anonymous.code).not.toBe(0);
  expect(anonymous.stderr).toContain("seed: Send a personal API token");
});
