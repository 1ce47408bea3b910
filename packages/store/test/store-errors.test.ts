import {
  ConflictError,
  InUseError,
  NotFoundError,
  storeErrorOf,
  ValidationError,
} from "@seed/model";
import { describe, expect, it } from "vitest";
import { editor } from "./actors.js";
import { dialects, errorOf, openTestStore, salesInput } from "./helpers.js";

// Callers branch on an error's kind and read each problem's field and code; they never parse
// message text, and a copy of the store module from another bundle is recognised by shape.

describe("typed store errors", () => {
  it("each refusal carries its kind", () => {
    expect(new ValidationError({ fieldErrors: { name: ["Give a name."] } }).kind).toBe("invalid");
    expect(new ConflictError("chart", "c", 1, 2).kind).toBe("conflict");
    expect(new NotFoundError("chart", "c").kind).toBe("not_found");
    expect(new InUseError("dataset", "d", []).kind).toBe("in_use");
  });

  it("validation problems list their field and code, the form's under the empty field", () => {
    const error = new ValidationError({
      fieldErrors: { name: ["Give a name."], "tiles.0.chartId": ["Pick a chart."] },
      formError: "Check the marked fields.",
    });
    expect(error.problems).toEqual([
      { field: "name", code: "invalid", message: "Give a name." },
      { field: "tiles.0.chartId", code: "invalid", message: "Pick a chart." },
      { field: "", code: "invalid", message: "Check the marked fields." },
    ]);
  });

  it("recognises store errors by shape, not class identity", () => {
    const copy = Object.assign(new Error("x"), { kind: "conflict" });
    expect(storeErrorOf(copy)).toBe(copy);
    expect(storeErrorOf(Object.assign(new Error("x"), { kind: "invalid" }))).toBeNull();
    expect(storeErrorOf(Object.assign(new Error("x"), { kind: "ENOENT" }))).toBeNull();
    expect(storeErrorOf({ kind: "conflict" })).toBeNull();
    expect(storeErrorOf(null)).toBeNull();
  });
});

describe.each(dialects)("store refusals on %s", (dialect) => {
  it("a stale write is a conflict and a bad input names its field", async () => {
    const store = await openTestStore(dialect, { seedDemo: false });
    const dataset = await store.createDataset(salesInput(), editor);
    await store.updateDataset(dataset.id, 1, { name: "B" }, editor);

    const stale = storeErrorOf(
      await errorOf(store.updateDataset(dataset.id, 1, { name: "C" }, editor)),
    );
    const invalid = storeErrorOf(
      await errorOf(store.createDataset({ ...salesInput(), name: "" }, editor)),
    );
    const missing = storeErrorOf(await errorOf(store.deleteDataset("no-such-id", 1, editor)));

    expect(stale?.kind).toBe("conflict");
    expect(invalid?.kind).toBe("invalid");
    expect(invalid instanceof ValidationError && invalid.problems.map((p) => p.field)).toContain(
      "name",
    );
    expect(missing?.kind).toBe("not_found");
    await store.close();
  });
});
