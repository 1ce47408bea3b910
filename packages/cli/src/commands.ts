import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { lineOf, printDashboardFile, readDashboardFile } from "@seed/model/file";
import { createTwoFilesPatch } from "diff";
import { ApiError, type Client } from "./client.js";

// The commands, each over plain inputs and an output sink, so tests drive them as the binary does.

export interface Output {
  out(line: string): void;
  err(line: string): void;
}

/** 0: done and nothing differs; 1: problems or differences; 2 is left to usage errors. */
export type ExitCode = 0 | 1 | 2;

function problemLines(
  file: string,
  text: string,
  error: ApiError | { path: string; line: number | null; message: string }[],
) {
  const problems = Array.isArray(error)
    ? error
    : error.problem.errors.length > 0
      ? error.problem.errors.map((entry) => ({
          path: entry.path,
          line: entry.line ?? lineOf(text, entry.path.split(".")),
          message: entry.message,
        }))
      : [{ path: "", line: null, message: error.problem.detail }];
  return problems.map(
    ({ path: at, line, message }) =>
      `${file}${line ? `:${line}` : ""}: ${at ? `${at}: ` : ""}${message}`,
  );
}

/** Checks files against the format, each problem as file:line: path: message. */
export async function validate(files: readonly string[], output: Output): Promise<ExitCode> {
  let failed = false;
  for (const file of files) {
    const text = await readFile(file, "utf8");
    const reading = readDashboardFile(text);
    if (reading.ok) {
      output.out(`${file}: ok (${reading.file.slug})`);
      continue;
    }
    failed = true;
    for (const line of problemLines(file, text, reading.problems)) output.err(line);
  }
  return failed ? 1 : 0;
}

/** Writes each dashboard's file (all of them when no slug is named) into `dir` as <slug>.yaml. */
export async function pull(
  client: Client,
  slugs: readonly string[],
  dir: string,
  output: Output,
): Promise<ExitCode> {
  const wanted = slugs.length > 0 ? slugs : await client.listSlugs();
  let failed = false;
  for (const slug of wanted) {
    const remote = await client.getFile(slug);
    if (!remote) {
      output.err(`${slug}: no dashboard has this slug`);
      failed = true;
      continue;
    }
    const target = path.join(dir, `${slug}.yaml`);
    const before = await readFile(target, "utf8").catch(() => null);
    if (before === remote.text) {
      output.out(`${target}: unchanged`);
      continue;
    }
    await writeFile(target, remote.text);
    output.out(`${target}: ${before === null ? "written" : "updated"} (${remote.etag})`);
  }
  return failed ? 1 : 0;
}

/**
 * Sends files to the server, each as one new version (or none when unchanged). Every file is
 * checked first: one with problems stops the push before anything is sent.
 */
export async function push(
  client: Client,
  files: readonly string[],
  output: Output,
): Promise<ExitCode> {
  const texts = await Promise.all(files.map((file) => readFile(file, "utf8")));
  let failed = false;
  const readings = texts.map((text, index) => {
    const reading = readDashboardFile(text);
    if (!reading.ok) {
      failed = true;
      for (const line of problemLines(files[index] as string, text, reading.problems))
        output.err(line);
    }
    return reading;
  });
  if (failed) {
    output.err("Nothing was pushed: fix the problems above first.");
    return 1;
  }
  for (const [index, reading] of readings.entries()) {
    if (!reading.ok) continue;
    const file = files[index] as string;
    const text = texts[index] as string;
    try {
      const result = await client.putFile(reading.file.slug, text);
      output.out(`${file}: ${result.outcome} (${reading.file.slug}, version ${result.version})`);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      failed = true;
      for (const line of problemLines(file, text, error)) output.err(line);
    }
  }
  return failed ? 1 : 0;
}

/** Shows how each file differs from its dashboard on the server, as a unified diff. */
export async function diff(
  client: Client,
  files: readonly string[],
  output: Output,
): Promise<ExitCode> {
  let differs = false;
  for (const file of files) {
    const text = await readFile(file, "utf8");
    const reading = readDashboardFile(text);
    if (!reading.ok) {
      for (const line of problemLines(file, text, reading.problems)) output.err(line);
      differs = true;
      continue;
    }
    const slug = reading.file.slug;
    const remote = await client.getFile(slug);
    const local = printDashboardFile(reading.file);
    if (!remote) {
      output.out(`${file}: ${slug} is not on the server yet (push creates it)`);
      differs = true;
      continue;
    }
    const served = readDashboardFile(remote.text);
    const server = served.ok ? printDashboardFile(served.file) : remote.text;
    if (server === local) {
      output.out(`${file}: same as the server (${remote.etag})`);
      continue;
    }
    differs = true;
    output.out(
      createTwoFilesPatch(`server/${slug}.yaml`, file, server, local, remote.etag, "local"),
    );
  }
  return differs ? 1 : 0;
}
