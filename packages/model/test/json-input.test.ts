import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkRows,
  describeValue,
  type JsonLimits,
  jsonInputLimits,
  readBoundedJson,
} from "../src/index.js";

// Issue 22, item 5: JSON from outside is measured before it is parsed, and describing a value
// for a message is bounded work on any value.

const seed = Number(process.env.SEED_PROPERTY_SEED ?? Date.now() % 2_147_483_647);
console.log(`json-input seed: ${seed} (rerun with SEED_PROPERTY_SEED=${seed})`);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Nesting of arrays and objects in a small value (the oracle; small values only). */
function depthOf(value: Json): number {
  if (value === null || typeof value !== "object") return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** Values and keys in a small value, as JsonLimits counts them. */
function countOf(value: Json): number {
  if (value === null || typeof value !== "object") return 1;
  if (Array.isArray(value)) return 1 + value.reduce<number>((sum, item) => sum + countOf(item), 0);
  return 1 + Object.values(value).reduce<number>((sum, item) => sum + 1 + countOf(item), 0);
}

/** A JSON text with what the limits measure, worked out while it is built (never by recursion over it). */
interface Measured {
  text: string;
  depth: number;
  values: number;
}

const smallJson = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json>;

/** `leaf` inside `levels` arrays and objects, mixed by `kinds`: up to 100,000 deep. */
const deepJson: fc.Arbitrary<Measured> = fc
  .record({
    levels: fc.oneof(
      fc.integer({ min: 0, max: 40 }),
      fc.integer({ min: 0, max: 100_000 }),
      fc.constant(100_000),
    ),
    kinds: fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
    key: fc.string({ maxLength: 8 }),
    leaf: smallJson,
  })
  .map(({ levels, kinds, key, leaf }) => {
    const openers: string[] = [];
    const closers: string[] = [];
    let values = countOf(leaf);
    const keyText = JSON.stringify(key);
    for (let level = 0; level < levels; level++) {
      const isArray = kinds[level % kinds.length];
      openers.push(isArray ? "[" : `{${keyText}:`);
      closers.push(isArray ? "]" : "}");
      values += isArray ? 1 : 2;
    }
    return {
      text: `${openers.join("")}${JSON.stringify(leaf)}${closers.reverse().join("")}`,
      depth: levels + depthOf(leaf),
      values,
    };
  });

/** Long text made cheaply: a short string repeated up to `times` times. */
const longString = (times: number) =>
  fc
    .tuple(
      fc.string({ minLength: 1, maxLength: 8, unit: "binary" }),
      fc.integer({ min: 1, max: times }),
    )
    .map(([unit, count]) => unit.repeat(count));

/** A flat array or object of up to 50,000 small items and a few strings of up to a megabyte. */
const wideJson: fc.Arbitrary<Measured> = fc
  .record({
    width: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50_000 })),
    asObject: fc.boolean(),
    items: fc.array(smallJson, { minLength: 1, maxLength: 6 }),
    long: fc.array(longString(100_000), { maxLength: 3 }),
  })
  .map(({ width, asObject, items, long }) => {
    const parts: string[] = [];
    let values = 1;
    let depth = 1;
    const all: Json[] = [
      ...long,
      ...Array.from({ length: width }, (_, index) => items[index % items.length] as Json),
    ];
    for (const [index, item] of all.entries()) {
      const itemText = JSON.stringify(item);
      parts.push(asObject ? `"k${index}":${itemText}` : itemText);
      values += countOf(item) + (asObject ? 1 : 0);
      depth = Math.max(depth, 1 + depthOf(item));
    }
    return {
      text: asObject ? `{${parts.join(",")}}` : `[${parts.join(",")}]`,
      depth,
      values,
    };
  });

const shallowJson: fc.Arbitrary<Measured> = fc.jsonValue({ maxDepth: 6 }).map((value) => ({
  text: JSON.stringify(value),
  depth: depthOf(value as Json),
  values: countOf(value as Json),
}));

const limits: fc.Arbitrary<JsonLimits> = fc.record({
  maxBytes: fc.oneof(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 12_000_000 })),
  maxDepth: fc.integer({ min: 0, max: 64 }),
  maxValues: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 300_000 })),
});

describe("readBoundedJson", () => {
  it("parses exactly the JSON within every limit and refuses the rest by a limit it breaks", () => {
    fc.assert(
      fc.property(fc.oneof(deepJson, wideJson, shallowJson), limits, (measured, limit) => {
        const bytes = Buffer.byteLength(measured.text, "utf8");
        const broken = new Set<string>();
        if (bytes > limit.maxBytes) broken.add("too_large");
        if (measured.depth > limit.maxDepth) broken.add("too_deep");
        if (measured.values > limit.maxValues) broken.add("too_many_values");

        const result = readBoundedJson(measured.text, limit, "The body");

        if (result.ok) {
          expect(broken.size).toBe(0);
          // The texts are canonical JSON, so writing the value back gives them again.
          expect(JSON.stringify(result.value)).toBe(measured.text);
        } else {
          expect(broken.has(result.reason)).toBe(true);
          // The size is checked first: an oversized text is never scanned further.
          if (broken.has("too_large")) expect(result.reason).toBe("too_large");
          expect(result.message).toMatch(/^The body .+\.$/);
          expect(result.message.length).toBeLessThan(120);
        }
      }),
      { seed, numRuns: 200 },
    );
  }, 120_000);

  it("never throws on any text, and calls it invalid exactly when JSON.parse refuses it", () => {
    const anyText = fc.oneof(
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.string({ unit: fc.constantFrom("[", "]", "{", "}", '"', "\\", ",", ":", "1", "n", " ") }),
      // Valid JSON cut short or with a character dropped.
      fc.tuple(fc.jsonValue(), fc.nat(), fc.nat()).map(([value, cut, drop]) => {
        const text = JSON.stringify(value);
        const at = drop % (text.length + 1);
        return `${text.slice(0, at)}${text.slice(at + 1)}`.slice(0, cut % (text.length + 1));
      }),
    );
    const generous = { maxBytes: 1_000_000, maxDepth: 1_000, maxValues: 1_000_000 };
    fc.assert(
      fc.property(anyText, (text) => {
        const result = readBoundedJson(text, generous);
        let parsed: { value: unknown } | null = null;
        try {
          parsed = { value: JSON.parse(text) };
        } catch {
          parsed = null;
        }
        if (result.ok) expect(result.value).toEqual(parsed?.value);
        else expect(result.reason).toBe("invalid_json");
        expect(result.ok).toBe(parsed !== null);
      }),
      { seed, numRuns: 2_000 },
    );
  });

  it("refuses 100,000 nested arrays and objects under every input's limits, at once", () => {
    const deep = `${'[{"a":'.repeat(50_000)}1${"}]".repeat(50_000)}`;
    for (const limit of Object.values(jsonInputLimits)) {
      const started = performance.now();
      const result = readBoundedJson(deep, limit);
      expect(result).toMatchObject({ ok: false });
      expect(["too_deep", "too_large"]).toContain(result.ok ? "" : result.reason);
      expect(performance.now() - started).toBeLessThan(500);
    }
  });
});

/** A value nested `levels` deep, built without recursion. */
function nested(levels: number, kinds: readonly boolean[]): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) {
    value = kinds[level % kinds.length] ? [value] : { a: value };
  }
  return value;
}

function heavyValues(): unknown[] {
  const wide: Record<string, number> = {};
  for (let key = 0; key < 200_000; key++) wide[`key-${key}`] = key;
  return [
    new Array(2_000_000),
    Array.from({ length: 200_000 }, (_, index) => index),
    wide,
    "x".repeat(10_000_000),
  ];
}

describe("describeValue", () => {
  const anyValue = fc.oneof(
    fc.anything({
      maxDepth: 4,
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withNullPrototype: true,
      withObjectString: true,
      withSet: true,
      withSparseArray: true,
      withTypedArray: true,
      withUnicodeString: true,
    }),
    fc
      .tuple(fc.integer({ min: 0, max: 100_000 }), fc.array(fc.boolean(), { minLength: 1 }))
      .map(([levels, kinds]) => nested(levels, kinds)),
    fc.integer({ min: 0, max: 2_000 }).map((keys) => {
      const wide: Record<string, string> = {};
      for (let key = 0; key < keys; key++) wide[`k${key}`] = "v".repeat(key % 50);
      return wide;
    }),
    // Built once: the extremes are slow to build, not to describe.
    fc.constantFrom(...heavyValues()),
    longString(100_000),
    fc.constant(
      (() => {
        const cyclic: Record<string, unknown> = { name: "loop" };
        cyclic.self = cyclic;
        return cyclic;
      })(),
    ),
    fc.constant(Symbol("s")),
    fc.constant(() => 1),
  );

  it("is short, never throws, and is the JSON itself for small shallow values", () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        const text = describeValue(value);
        expect(typeof text).toBe("string");
        expect(text.length).toBeLessThanOrEqual(70);
      }),
      { seed, numRuns: 400 },
    );
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (value) => {
        const json = JSON.stringify(value);
        fc.pre(json.length <= 40);
        expect(describeValue(value)).toBe(json);
      }),
      { seed, numRuns: 2_000 },
    );
  });

  it("describes a 100,000-deep cell in a row check without failing", () => {
    const { problems } = checkRows(
      [{ name: "amount", type: "number" }],
      [{ amount: nested(100_000, [true, false]) }],
    );
    expect(problems).toEqual([
      expect.objectContaining({ row: 1, column: "amount", code: "invalid_cell" }),
    ]);
    expect(problems[0]?.detail.length).toBeLessThan(100);
  });
});

describe("checkRows", () => {
  it("stops at ten problems and cuts unknown keys, however wide a row is", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50_000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (keys, keyLength, longKeyLength) => {
          const row: Record<string, unknown> = { amount: 1 };
          if (longKeyLength > 0) row["y".repeat(longKeyLength)] = "long";
          const prefix = "x".repeat(keyLength);
          for (let key = 0; key < keys; key++) row[`${prefix}${key}`] = key;
          const { problems } = checkRows([{ name: "amount", type: "number" }], [row]);
          expect(problems.length).toBe(Math.min(keys + (longKeyLength > 0 ? 1 : 0), 10));
          for (const problem of problems) {
            expect(problem.code).toBe("unknown_column");
            expect(problem.column.length).toBeLessThanOrEqual(65);
          }
        },
      ),
      { seed, numRuns: 30 },
    );
  });
});
