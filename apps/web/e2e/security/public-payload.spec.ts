import { randomInt } from "node:crypto";
import { expect, request, test } from "@playwright/test";
import {
  importCsvAsEditor,
  publishSummedBarChart,
  signedInPage,
  uniqueName,
} from "../content-support";
import { appBaseURL } from "../support";

// Public pages send each chart's query result only: no column that no chart or tile of the page
// uses, and no raw row that an aggregate already summarises. The dataset is generated with
// marker values that cannot occur by chance; the page's HTML and its RSC payload must hold none
// of them, while the sums they add up to must be there.

test("a published dashboard sends results, never unused columns or summarised rows", async ({
  browser,
}) => {
  const seed = randomInt(1_000_000);
  console.log(`public-payload seed ${seed}`);
  const regions = ["Norte", "Sul", "Leste"];
  // Raw amounts are 7-digit numbers unlikely anywhere else; each region's sum is printed too.
  const rows = Array.from({ length: 24 }, (_, index) => {
    const amount = 3_000_000 + ((seed + index * 7_919) % 900_000);
    return {
      region: regions[index % regions.length] as string,
      amount,
      secret: `SECRET${seed}X${index}`,
      note: `NOTE${seed}N${index}`,
    };
  });
  const sums = new Map<string, number>();
  for (const row of rows) sums.set(row.region, (sums.get(row.region) ?? 0) + row.amount);
  const csv = [
    "region,amount,secret,note",
    ...rows.map((row) => `${row.region},${row.amount},${row.secret},${row.note}`),
  ].join("\n");

  const datasetName = uniqueName("Payload");
  await importCsvAsEditor(`/api/datasets/import?name=${encodeURIComponent(datasetName)}`, csv);
  const { context, page } = await signedInPage(browser, "editor");
  const { slug } = await publishSummedBarChart(page, {
    datasetName,
    x: "region",
    measure: "amount",
  });
  await context.close();

  const visitor = await request.newContext({ baseURL: appBaseURL() });
  for (const path of [`/d/${slug}`, "/"]) {
    const html = await (await visitor.get(path)).text();
    const rsc = await (await visitor.get(path, { headers: { RSC: "1" } })).text();
    for (const [kind, body] of [
      ["HTML", html],
      ["RSC", rsc],
    ] as const) {
      for (const row of rows) {
        expect(body, `${path} ${kind}: unused column "secret"`).not.toContain(row.secret);
        expect(body, `${path} ${kind}: unused column "note"`).not.toContain(row.note);
        expect(body, `${path} ${kind}: a raw amount the sum summarises`).not.toContain(
          String(row.amount),
        );
      }
    }
    if (path !== "/") {
      // The result itself is there: one sum per region.
      for (const [region, sum] of sums) {
        expect(rsc, `${region} sum`).toContain(String(sum));
      }
    }
  }
  await visitor.dispose();
});
