import { Document, isMap, isSeq, LineCounter, parseDocument } from "yaml";
import {
  type DashboardFile,
  type DashboardFileTile,
  dashboardFileFormat,
  dashboardFileLimits,
  dashboardFileSchema,
  fileQuery,
} from "./file.js";

// A dashboard file's text: printed in a fixed order and read back with each problem's line. The
// @seed/model/file entry (Node and tools only: it brings the yaml library).

/** The file's text: fields in a fixed order, so an unchanged dashboard prints the same bytes. */
export function printDashboardFile(file: DashboardFile, schemaUrl?: string): string {
  const ordered = {
    format: dashboardFileFormat,
    slug: file.slug,
    title: file.title,
    description: file.description,
    icon: file.icon,
    timeZone: file.timeZone,
    refreshSeconds: file.refreshSeconds,
    published: file.published,
    embedOrigins: file.embedOrigins,
    filters: { dateColumn: file.filters.dateColumn, categories: file.filters.categories },
    tiles: file.tiles.map(printedTile),
    // In tile order: a plain object would put keys such as "5" first.
    layout: new Map(
      [
        ...file.tiles.map((tile) => tile.key),
        ...Object.keys(file.layout).filter((key) => !file.tiles.some((tile) => tile.key === key)),
      ].flatMap((key) => {
        const place = file.layout[key];
        return place ? [[key, place] as const] : [];
      }),
    ),
  };
  const document = new Document(ordered, { aliasDuplicateObjects: false });
  // A place reads best on one line: "revenue: { x: 0, y: 0, w: 6, h: 4 }".
  const layout = document.get("layout", true);
  if (isMap(layout)) for (const pair of layout.items) if (isMap(pair.value)) pair.value.flow = true;
  const header = schemaUrl ? `# yaml-language-server: $schema=${schemaUrl}\n` : "";
  return header + document.toString({ lineWidth: 0 });
}

/** A tile's fields in the order files write them: key and kind first. */
function printedTile(tile: DashboardFileTile): Record<string, unknown> {
  if (tile.kind === "chart") {
    const { title, type, dataset, query, options } = tile.chart;
    return {
      key: tile.key,
      kind: tile.kind,
      chart: {
        title,
        type,
        dataset,
        query: fileQuery(query),
        ...(options && Object.keys(options).length > 0 ? { options } : {}),
      },
    };
  }
  if (tile.kind === "text") return { key: tile.key, kind: tile.kind, markdown: tile.markdown };
  const { key, kind, label, dataset, column, aggregation, ...rest } = tile;
  const optional = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined),
  );
  return { key, kind, label, dataset, column, aggregation, ...optional };
}

/** One thing wrong with a file: where (a dotted path, and its line when known) and why. */
export interface DashboardFileProblem {
  path: string;
  line: number | null;
  message: string;
}

export type DashboardFileReading =
  | { ok: true; file: DashboardFile }
  | { ok: false; problems: DashboardFileProblem[] };

/** Reads a file's text: YAML (or JSON) checked against the format, each problem with its line. */
export function readDashboardFile(text: string): DashboardFileReading {
  if (new TextEncoder().encode(text).length > dashboardFileLimits.maxBytes) {
    const limit = dashboardFileLimits.maxBytes.toLocaleString("en-US");
    return fail("", null, `A dashboard file is at most ${limit} bytes.`);
  }
  const lines = new LineCounter();
  const document = parseDocument(text, {
    lineCounter: lines,
    uniqueKeys: true,
    prettyErrors: false,
  });
  const broken = document.errors[0];
  if (broken) {
    const line = broken.linePos?.[0]?.line ?? lines.linePos(broken.pos[0]).line;
    return fail("", line, `This is not valid YAML: ${firstSentence(broken.message)}`);
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: dashboardFileLimits.maxAliases });
  } catch (error) {
    const why = /alias/i.test(String(error))
      ? `it uses aliases (*) more than ${dashboardFileLimits.maxAliases} times`
      : firstSentence(String(error));
    return fail("", null, `The file cannot be read: ${why}.`);
  }
  const parsed = dashboardFileSchema.safeParse(value);
  if (parsed.success) return { ok: true, file: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({
      path: issue.path.map(String).join("."),
      line: lineOf(text, issue.path.map(String)),
      message: issue.message,
    })),
  };
}

function fail(path: string, line: number | null, message: string): DashboardFileReading {
  return { ok: false, problems: [{ path, line, message }] };
}

function firstSentence(message: string): string {
  return message.split("\n")[0]?.replace(/^Error: /, "") ?? message;
}

/**
 * The line of the value at `path` ("tiles.2.chart.type"), or of the nearest part of it the file
 * has; null for the document itself. For problems found later too (the store names dataset and
 * column problems by path).
 */
export function lineOf(text: string, path: readonly string[]): number | null {
  const lines = new LineCounter();
  const document = parseDocument(text, { lineCounter: lines });
  let node: unknown = document.contents;
  let line: number | null = null;
  for (const part of path) {
    let next: unknown;
    if (isMap(node)) next = node.items.find((pair) => String(pair.key) === part);
    else if (isSeq(node)) next = node.items[Number(part)];
    if (next === undefined) break;
    const pair = next as { key?: { range?: number[] }; value?: unknown; range?: number[] };
    const start = pair.key?.range?.[0] ?? pair.range?.[0];
    if (start !== undefined) line = lines.linePos(start).line;
    node = pair.key ? pair.value : next;
  }
  return line;
}
