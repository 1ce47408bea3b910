import { describe, expect, it } from "vitest";
import { editor } from "./actors.js";
import { byteChunks, storeOn, storesOnEveryEngine } from "./helpers.js";

// Formats kept with the columns (issue 25): a dataset remembers how its file wrote each column,
// so a later import reads an undecided day/month the way the person chose, never silently the
// other way; a file written otherwise is read as it is written.

const stores = storesOnEveryEngine();
const encode = (text: string) => new TextEncoder().encode(text);

describe.each(["sqlite", "postgres", "duckdb"])("formats kept on %s", (engine) => {
  const store = () => storeOn(stores, engine);

  it("a day-first reading chosen once is how later files of the dataset are read", async () => {
    const created = await store().importNewDataset(
      {
        name: `Days ${engine}`,
        source: byteChunks(encode("day,visits\n01/02/2024,1\n")),
        columns: { day: { format: "d/M/yyyy" } },
      },
      editor,
    );
    // Undecided again (every part at most 12): read day-first, as the dataset was.
    const undecided = encode("day,visits\n03/04/2024,2\n");
    const preview = await store().previewImport(
      { bytes: undecided, complete: true, datasetId: created.datasetId },
      editor,
    );
    expect(preview.columns[0]?.format).toBe("d/M/yyyy");
    expect(preview.rows[0]?.values.day).toBe("2024-04-03");
    const appended = await store().importIntoDataset(
      {
        datasetId: created.datasetId,
        expectedVersion: 1,
        mode: "append",
        source: byteChunks(undecided),
      },
      editor,
    );
    // A rename of another column keeps the format.
    const renamed = await store().updateDataset(
      created.datasetId,
      appended.version,
      {
        columns: [
          { name: "day", type: "date" },
          { name: "visits", type: "number" },
        ],
        rows: [
          { day: "2024-02-01", visits: 1 },
          { day: "2024-04-03", visits: 2 },
        ],
      },
      editor,
    );
    const again = await store().importIntoDataset(
      {
        datasetId: created.datasetId,
        expectedVersion: renamed.version,
        mode: "append",
        source: byteChunks(encode("day,visits\n05/06/2024,3\n")),
      },
      editor,
    );
    // A file written in another pattern is read as written.
    await store().importIntoDataset(
      {
        datasetId: created.datasetId,
        expectedVersion: again.version,
        mode: "append",
        source: byteChunks(encode("day,visits\n2024-07-08,4\n")),
      },
      editor,
    );
    const dataset = await store().getDataset(created.datasetId);
    expect(dataset?.rows.map((row) => row.day)).toEqual([
      "2024-02-01",
      "2024-04-03",
      "2024-06-05",
      "2024-07-08",
    ]);
  });
});
