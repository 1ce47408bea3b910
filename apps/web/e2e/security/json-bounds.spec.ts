import { type APIRequestContext, expect, type Page, request, test } from "@playwright/test";
import { jsonInputLimits } from "@seed/model";
import fc from "fast-check";
import { importEventsHeader } from "../../src/features/datasets/import-events";
import {
  appBaseURL,
  type CapturedServerAction,
  captureServerAction,
  replayServerActionWith,
  testUser,
} from "../support";

// Issue 22, item 5: every route and action that takes JSON bounds its depth, value count and
// size before any recursive work, and answers with a reason (4xx or a form message), never 500.
// The values are generated: nesting from just past the limit to 100,000 deep, arrays and
// objects wider than the value limit, and texts past the byte limit.
test.describe.configure({ timeout: 240_000 });

const seed = Number(process.env.FC_SEED ?? process.env.SEED ?? Date.now() % 2 ** 31);
console.log(`[json-bounds] fast-check seed ${seed} (FC_SEED=${seed} repeats this run)`);

type Limits = { maxBytes: number; maxDepth: number; maxValues: number };
type Oversize = { kind: "deep" | "wide" | "large"; text: string };

/** Wraps `inner` in `depth` arrays or objects, mixed as `pattern` says. */
function nest(inner: string, depth: number, pattern: readonly boolean[]): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let level = 0; level < depth; level++) {
    const object = pattern[level % pattern.length] ?? false;
    open.push(object ? '{"k":' : "[");
    close.push(object ? "}" : "]");
  }
  return open.join("") + inner + close.reverse().join("");
}

/** Generated JSON texts that break exactly one kind of limit of `limits`, within `maxBodyBytes`. */
function oversized(limits: Limits, maxBodyBytes: number): fc.Arbitrary<Oversize> {
  const deep = fc
    .record({
      depth: fc.oneof(
        fc.integer({ min: limits.maxDepth + 1, max: limits.maxDepth + 4 }),
        fc.integer({ min: limits.maxDepth + 1, max: 100_000 }),
        fc.constant(100_000),
      ),
      pattern: fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
      inner: fc.constantFrom("1", '"x"', "null", "[]", "{}"),
    })
    .map(({ depth, pattern, inner }) => ({
      kind: "deep" as const,
      text: nest(inner, depth, pattern),
    }));
  const wide = fc
    .record({
      extra: fc.oneof(
        fc.integer({ min: 1, max: 10 }),
        fc.integer({ min: 1, max: Math.floor(limits.maxValues / 4) }),
      ),
      value: fc.constantFrom("0", "1", "true", "null", '""'),
      object: fc.boolean(),
    })
    .map(({ extra, value, object }) => {
      // an object entry is two values (its key and its value); duplicate keys are valid JSON
      const count = object ? Math.ceil((limits.maxValues + extra) / 2) : limits.maxValues + extra;
      const items = new Array<string>(count).fill(object ? `"k":${value}` : value);
      return { kind: "wide" as const, text: object ? `{${items}}` : `[${items}]` };
    })
    .filter((value) => value.text.length < Math.min(limits.maxBytes, maxBodyBytes));
  const large = fc
    .record({
      extra: fc.integer({ min: 1, max: 4096 }),
      char: fc.constantFrom("a", "é", "€", "😀"),
    })
    .map(({ extra, char }) => {
      const bytes = new TextEncoder().encode(char).length;
      return {
        kind: "large" as const,
        text: `"${char.repeat(Math.ceil((limits.maxBytes + extra) / bytes))}"`,
      };
    });
  // a text past the byte limit only when it fits the transport's own body limit
  return limits.maxBytes * 1.5 < maxBodyBytes ? fc.oneof(deep, wide, large) : fc.oneof(deep, wide);
}

/** What the answer must say about `sent`: its size first (the cheapest check), then its shape. */
function expectedReason(sent: string, kind: Oversize["kind"], limits: Limits): RegExp {
  if (Buffer.byteLength(sent, "utf8") > limits.maxBytes) return /is larger than/;
  if (kind === "deep") return /nests arrays and objects more than \d+ deep/;
  return /holds more than [\d,]+ values and keys/;
}

test("chart preview: deep, wide and large bodies answer 400 or 413 with a reason, never 500", async () => {
  const client: APIRequestContext = await request.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("editor").storageState,
  });
  const limits = jsonInputLimits.chartQuery;
  let runs = 0;
  await fc.assert(
    fc.asyncProperty(oversized(limits, 4 * 1024 * 1024), fc.boolean(), async (value, inQuery) => {
      runs++;
      // Either the whole body or the query inside an otherwise good body.
      const body = inQuery ? `{"datasetId":"x","type":"bar","query":${value.text}}` : value.text;
      const response = await client.post("/admin/api/charts/preview", {
        data: body,
        headers: { "Content-Type": "application/json" },
      });
      expect([400, 413]).toContain(response.status());
      const answer = (await response.json()) as { message?: string };
      expect(answer.message ?? "").toMatch(/^The query /);
      const reason = expectedReason(body, value.kind, limits);
      expect(answer.message).toMatch(reason);
      expect(response.status()).toBe(reason.source.includes("deep") ? 400 : 413);
    }),
    { seed, numRuns: 120 },
  );
  expect(runs).toBeGreaterThanOrEqual(120);
  // a body far past the limit is cut off while it is read, and still answers 413
  const huge = await client.post("/admin/api/charts/preview", {
    data: `[${"1,".repeat(2_000_000)}1]`,
    headers: { "Content-Type": "application/json" },
  });
  expect(huge.status()).toBe(413);
  await client.dispose();
});

interface ActionJsonCase {
  name: string;
  field: string;
  limits: Limits;
  path: () => Promise<string>;
  submit: (page: Page) => Promise<void>;
}

async function demoId(kind: "datasets" | "charts" | "dashboards"): Promise<string> {
  const names = {
    datasets: "Monthly sales by channel",
    charts: "Orders per month",
    dashboards: "Store performance",
  };
  const client = await request.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("admin").storageState,
  });
  const html = await (await client.get(`/admin/${kind}`)).text();
  await client.dispose();
  const match = new RegExp(`href="/admin/${kind}/([0-9a-f-]{36})">${names[kind]}<`).exec(html);
  if (!match?.[1]) throw new Error(`No demo ${kind} record`);
  return match[1];
}

/** The form posts a version that never exists: should a bound ever fail, the store refuses. */
async function staleVersion(page: Page) {
  await page.evaluate(() => {
    document.addEventListener(
      "submit",
      (event) => {
        const input = (event.target as HTMLFormElement).querySelector<HTMLInputElement>(
          'input[name="version"]',
        );
        if (input) input.value = "999999";
      },
      { capture: true },
    );
  });
}

const actionCases: ActionJsonCase[] = [
  {
    name: "save chart (the editor's form)",
    field: "chart",
    limits: jsonInputLimits.chartForm,
    path: async () => `/admin/charts/${await demoId("charts")}`,
    submit: async (page) => {
      await staleVersion(page);
      await page
        .getByRole("form", { name: "Chart" })
        .getByRole("button", { name: "Save chart" })
        .click();
    },
  },
  {
    name: "save layout",
    field: "layout",
    limits: jsonInputLimits.dashboardLayout,
    path: async () => `/admin/dashboards/${await demoId("dashboards")}`,
    submit: async (page) => {
      await staleVersion(page);
      await page
        .getByRole("button", { name: /^Move or resize / })
        .last()
        .press("ArrowDown");
      await page
        .getByRole("form", { name: "Save layout" })
        .getByRole("button", { name: "Save layout" })
        .click();
    },
  },
  {
    name: "save dataset rows",
    field: "edits",
    limits: jsonInputLimits.rowEdits,
    path: async () => `/admin/datasets/${await demoId("datasets")}`,
    submit: async (page) => {
      await staleVersion(page);
      await page
        .getByRole("form", { name: "Edit rows" })
        .getByRole("button", { name: "Save rows" })
        .click();
    },
  },
];

test("import and its preview: deep, wide and large column choices answer with a reason, never 500", async () => {
  const client: APIRequestContext = await request.newContext({
    baseURL: appBaseURL(),
    storageState: testUser("editor").storageState,
  });
  const limits = jsonInputLimits.columnChoices;
  // The choices travel in the query: past Node's 16 KB of request line and headers the server
  // answers 431 before any route runs; under it, the route reads them within their limits.
  const headerLimit = 16 * 1024;
  await fc.assert(
    fc.asyncProperty(
      oversized(limits, headerLimit),
      fc.constantFrom(
        "/api/datasets/import/preview?complete=1&",
        "/api/datasets/import?name=Bounds&",
      ),
      async (value, path) => {
        const url = `${path}columns=${encodeURIComponent(value.text)}`;
        const response = await client.post(url, {
          data: "a,b\n1,2\n",
          headers: { Origin: appBaseURL(), "Content-Type": "text/csv", [importEventsHeader]: "1" },
        });
        if (url.length > headerLimit - 1024) {
          expect([400, 414, 431]).toContain(response.status());
          return;
        }
        expect(response.status()).toBe(400);
        const answer = (await response.json()) as { message?: string };
        expect(answer.message ?? "").toMatch(/^The column choices /);
        expect(answer.message).toMatch(expectedReason(value.text, value.kind, limits));
      },
    ),
    { seed, numRuns: 60 },
  );
  // A choice past its own rules names the column and the reason.
  for (const [choices, reason] of [
    [{ a: { name: "n".repeat(65) } }, /^Column "a": a column's name has at most 64 characters\.$/],
    [{ a: { name: " " } }, /^Column "a": a column's name cannot be blank\.$/],
    [{ a: { type: "number", format: "yyyy-MM-dd" } }, /^Column "a": /],
  ] as const) {
    const response = await client.post(
      `/api/datasets/import?name=Bounds&columns=${encodeURIComponent(JSON.stringify(choices))}`,
      {
        data: "a,b\n1,2\n",
        headers: { Origin: appBaseURL(), "Content-Type": "text/csv", [importEventsHeader]: "1" },
      },
    );
    expect(response.status()).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(reason);
  }
  await client.dispose();
});

for (const actionCase of actionCases) {
  test(`${actionCase.name}: deep, wide and large JSON is refused with its reason, never 500`, async ({
    browser,
  }) => {
    const action: CapturedServerAction = await captureServerAction(
      browser,
      "editor",
      await actionCase.path(),
      actionCase.submit,
    );
    // Under the server actions' 3 MB body limit: past it Next.js itself refuses the request.
    await fc.assert(
      fc.asyncProperty(oversized(actionCase.limits, 2 * 1024 * 1024), async (value) => {
        const result = await replayServerActionWith(action, "editor", actionCase.field, value.text);
        expect(result.status).toBe(200);
        expect(result.body).toMatch(expectedReason(value.text, value.kind, actionCase.limits));
      }),
      { seed, numRuns: 12 },
    );
  });
}
