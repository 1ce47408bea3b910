// Provisioning: a folder of dashboard files (Grafana's provisioned dashboards) kept in the
// database. Each file creates or updates its dashboard, marked as kept from that file and so
// read-only in the app; an unchanged file writes nothing, so every instance may run it at start
// and on each change. A file taken away releases its dashboard (editable again), never deletes it.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { ConflictError, dashboardFileLimits, StoreError, ValidationError } from "@seed/model";
import { type Actor, authorize } from "../access/policy.js";
import { isUniqueViolation, type StoreContext } from "../context.js";
import { changeDashboardIn } from "../repo/dashboards/dashboards.js";
import { importDashboardFile } from "../repo/dashboards/file.js";
import { getDashboardIn } from "../repo/dashboards/records.js";

/** The actor provisioning records in the audit log and history: content, so an editor. */
export const provisioningActor: Actor = {
  id: "system:provisioning",
  email: "provisioning@seed-charts.invalid",
  role: "editor",
};

export const provisioningLimits = {
  /** Dashboard files one folder may hold (deeper folders included). */
  maxFiles: 500,
  /** Folder levels read below the folder itself. */
  maxDepth: 4,
} as const;

export interface ProvisionedFile {
  /** The file's path inside the folder, with "/" separators ("sales/revenue.yaml"). */
  file: string;
  outcome: "created" | "updated" | "unchanged" | "failed";
  slug: string | null;
  /** Why a failed file was not applied, each problem with its path and line when known. */
  problems: string[];
}

export interface ProvisionReport {
  files: ProvisionedFile[];
  /** Dashboards whose file is gone: kept, and editable in the app again (slugs). */
  released: string[];
}

const fileNames = /\.(ya?ml|json)$/i;

/** The folder's dashboard files, sorted, as paths inside it; hidden entries are skipped. */
async function dashboardFilesIn(folder: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string, depth: number) => {
    const entries = await readdir(path.join(folder, relative), { withFileTypes: true });
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith(".")) continue;
      const inside = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory() && depth < provisioningLimits.maxDepth) await walk(inside, depth + 1);
      else if (entry.isFile() && fileNames.test(entry.name)) found.push(inside);
    }
  };
  await walk("", 0);
  return found;
}

function problemsOf(error: unknown): string[] {
  if (!(error instanceof StoreError)) throw error;
  const fieldErrors = (error as { fieldErrors?: Record<string, string[]> }).fieldErrors ?? {};
  const formError = (error as { formError?: string }).formError;
  const lines = formError === undefined ? [] : [formError];
  for (const [field, messages] of Object.entries(fieldErrors)) {
    for (const message of messages) if (message !== formError) lines.push(`${field}: ${message}`);
  }
  return lines.length > 0 ? lines : [error.message];
}

/** Applies one file; a slug raced by another instance is read again (and found unchanged). */
async function provisionFile(
  ctx: StoreContext,
  folder: string,
  file: string,
): Promise<ProvisionedFile> {
  const full = path.join(folder, file);
  const failed = (problems: string[]): ProvisionedFile => ({
    file,
    outcome: "failed",
    slug: null,
    problems,
  });
  if ((await stat(full)).size > dashboardFileLimits.maxBytes) {
    const limit = dashboardFileLimits.maxBytes.toLocaleString("en-US");
    return failed([`A dashboard file is at most ${limit} bytes.`]);
  }
  const text = await readFile(full, "utf8");
  for (let attempt = 0; ; attempt++) {
    try {
      const { dashboard, outcome } = await importDashboardFile(ctx, text, provisioningActor, {
        managedFile: file,
      });
      return { file, outcome, slug: dashboard.slug, problems: [] };
    } catch (error) {
      // Another instance may have applied this file between this one's read and its write (a
      // unique violation or the slug check seeing its commit, or a newer version): a second try
      // reads what it wrote and finds the file applied. A wrong file fails the same way twice.
      const raced =
        isUniqueViolation(error) ||
        error instanceof ValidationError ||
        error instanceof ConflictError;
      if (attempt === 0 && raced) continue;
      return failed(problemsOf(error));
    }
  }
}

/**
 * Reads every dashboard file of `folder` (YAML or JSON, sorted, up to 500) and brings the
 * database to it: each file creates or updates its dashboard as one version, in one transaction
 * of its own; a bad file changes nothing and is reported with its problems. Dashboards kept
 * from a file that is no longer there are released.
 */
export async function provisionDashboards(
  ctx: StoreContext,
  folder: string,
): Promise<ProvisionReport> {
  const found = await dashboardFilesIn(folder);
  const files: ProvisionedFile[] = [];
  for (const [index, file] of found.entries()) {
    files.push(
      index < provisioningLimits.maxFiles
        ? await provisionFile(ctx, folder, file)
        : {
            file,
            outcome: "failed",
            slug: null,
            problems: [`A dashboards folder holds at most ${provisioningLimits.maxFiles} files.`],
          },
    );
  }
  const present = new Set(found.slice(0, provisioningLimits.maxFiles));
  const orphans = await ctx.db
    .selectFrom("dashboards")
    .select(["id", "managed_file"])
    .where("managed_file", "is not", null)
    .execute();
  const released: string[] = [];
  const actor = authorize(provisioningActor, "content.write");
  for (const orphan of orphans) {
    if (orphan.managed_file === null || present.has(orphan.managed_file)) continue;
    const dashboard = await ctx.db
      .transaction()
      .execute(async (trx) => {
        const current = await getDashboardIn(trx, orphan.id);
        if (!current || current.managedFile !== orphan.managed_file) return null;
        return changeDashboardIn(trx, ctx, current.id, current.version, actor, () => ({
          values: { managed_file: null },
          action: "dashboard.update",
          detail: () => ({ title: current.title, released: orphan.managed_file }),
        }));
      })
      // Another instance released it first.
      .catch((error: unknown) => {
        if (error instanceof ConflictError) return null;
        throw error;
      });
    if (dashboard) released.push(dashboard.slug);
  }
  return { files, released };
}

export const provisioningOperations = {
  /** Brings the database to a folder of dashboard files (at start and on each change). */
  provisionDashboards,
};
