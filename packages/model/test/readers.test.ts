import { format, isValid, parse } from "date-fns";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  datePatterns,
  dayMonthPairs,
  detectColumn,
  type NumberTextFormat,
  plainNumberTextFormat,
  readCell,
  readDay,
  readInstant,
  readNumber,
  twoDigitYearWindow,
} from "../src/index.js";

const seed = Number(process.env.FC_SEED ?? 20_250_125);
console.log(`[@seed/model readers] fast-check seed ${seed} (FC_SEED=${seed} repeats it)`);
const settings = { seed, numRuns: 300 };

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A local Date of the day (setFullYear, so years below 100 stay themselves). */
function localDay(year: number, month: number, day: number, hour = 0, minute = 0, second = 0) {
  const date = new Date(2000, 0, 1, hour, minute, second);
  date.setFullYear(year, month - 1, day);
  return date;
}

const iso = (year: number, month: number, day: number) =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

// Years 0001 to 9999 with the ends and leap days (including 2000 and 0004) drawn often.
const days = fc.oneof(
  fc
    .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }) })
    .chain(({ year, month }) =>
      fc.integer({ min: 1, max: daysIn(year, month) }).map((day) => ({ year, month, day })),
    ),
  fc.constantFrom(
    { year: 1, month: 1, day: 1 },
    { year: 9999, month: 12, day: 31 },
    { year: 4, month: 2, day: 29 },
    { year: 2000, month: 2, day: 29 },
    { year: 2024, month: 2, day: 29 },
    { year: 9996, month: 2, day: 29 },
  ),
);

/** Whether a pattern writes the year with two digits (yy, not yyyy). */
const twoDigitYears = (pattern: string) => /(^|[^y])yy($|[^y])/.test(pattern);

/**
 * The day a pattern can write: its own for four-digit years; in the two-digit window (1950 to
 * 2049) for yy, the year moved by whole centuries (so leap days stay leap days where they can).
 */
function writable(
  pattern: string,
  { year, month, day }: { year: number; month: number; day: number },
) {
  if (!twoDigitYears(pattern)) return { year, month, day };
  const { first } = twoDigitYearWindow;
  const moved = first + ((((year - first) % 100) + 100) % 100);
  return { year: moved, month, day: Math.min(day, daysIn(moved, month)) };
}

describe("date readers", () => {
  it("read every pattern's text of any day back as the same day, as date-fns parse does", () => {
    const reference = new Date(2000, 0, 1);
    fc.assert(
      fc.property(days, fc.constantFrom(...datePatterns), (drawn, pattern) => {
        const { year, month, day } = writable(pattern, drawn);
        const text = format(localDay(year, month, day), pattern);
        expect(readDay(pattern, text)).toBe(iso(year, month, day));
        const parsed = parse(text, pattern, reference);
        expect(isValid(parsed) && parsed.getFullYear() * 10_000 + parsed.getMonth() * 100).toBe(
          year * 10_000 + (month - 1) * 100,
        );
        expect(parsed.getDate()).toBe(day);
      }),
      settings,
    );
  });

  it("read date and time text as the UTC instant (no offset) or the instant it names (offset)", () => {
    fc.assert(
      fc.property(
        days,
        fc.constantFrom(...datePatterns),
        fc.integer({ min: 0, max: 86_399 }),
        (drawn, pattern, seconds) => {
          const { year, month, day } = writable(pattern, drawn);
          const [hour, minute, second] = [
            Math.floor(seconds / 3600),
            Math.floor(seconds / 60) % 60,
            seconds % 60,
          ];
          const local = localDay(year, month, day, hour, minute, second);
          const utc = `${iso(year, month, day)}T${format(local, "HH:mm:ss")}.000Z`;
          expect(readInstant(pattern, format(local, `${pattern} HH:mm:ss`))).toBe(utc);
          expect(readInstant(pattern, format(local, `${pattern} h:mm:ss a`))).toBe(utc);
          // Before about 1900 zones kept local mean time, offsets with seconds XXX cannot write.
          if (year >= 1900 && year < 9999) {
            const withOffset = format(local, "yyyy-MM-dd'T'HH:mm:ssXXX");
            expect(readInstant("yyyy-MM-dd", withOffset)).toBe(local.toISOString());
          }
        },
      ),
      settings,
    );
  });

  it("refuse days that do not exist, in every pattern, as date-fns does", () => {
    const reference = new Date(2000, 0, 1);
    const impossible = fc
      .record({ year: fc.integer({ min: 1, max: 9999 }), month: fc.integer({ min: 1, max: 12 }) })
      .filter(({ year, month }) => daysIn(year, month) < 31)
      .chain(({ year, month }) =>
        fc.integer({ min: daysIn(year, month) + 1, max: 31 }).map((day) => ({ year, month, day })),
      );
    fc.assert(
      fc.property(impossible, fc.constantFrom(...datePatterns), (drawn, pattern) => {
        const year = writable(pattern, { ...drawn, day: 1 }).year;
        const { month, day } = drawn;
        // A day that exists in the year the two digits stand for is not impossible there.
        if (day <= daysIn(year, month)) return;
        // The first day of the month written by date-fns, with its day number swapped in.
        const first = format(localDay(year, month, 1), pattern.replace(/d+/, "'DAY'"));
        const text = first.replace("DAY", String(day));
        expect(readDay(pattern, text)).toBeUndefined();
        expect(readInstant(pattern, text)).toBeUndefined();
        expect(isValid(parse(text, pattern, reference))).toBe(false);
      }),
      settings,
    );
    for (const [pattern, text] of [
      ["dd.MM.yyyy", "31.02.2024"],
      ["dd.MM.yyyy", "29.02.2023"],
      ["yyyy-MM-dd", "2024-13-01"],
      ["MMM d yyyy", "Feb 30 2000"],
      ["d/M/yyyy", "29/2/2100"],
      ["M/d/yyyy", "0/1/2024"],
    ] as const) {
      expect(readDay(pattern, text)).toBeUndefined();
    }
    for (const [pattern, text, day] of [
      ["M/d/yy", "1/2/24", "2024-01-02"],
      ["d/M/yy", "31/12/99", "1999-12-31"],
      ["dd.MM.yy", "29.02.00", "2000-02-29"],
      ["dd.MM.yy", "01.01.50", "1950-01-01"],
      ["d-MMM-yy", "1-Jan-49", "2049-01-01"],
    ] as const) {
      expect(readDay(pattern, text)).toBe(day);
    }
    // Exactly two digits: neither one nor three nor four.
    for (const text of ["1/2/4", "1/2/024", "1/2/2024"])
      expect(readDay("M/d/yy", text)).toBeUndefined();
    expect(readDay("dd.MM.yy", "29.02.01")).toBeUndefined();
    expect(readInstant("yyyy-MM-dd", "2024-01-01 24:00")).toBeUndefined();
    expect(readInstant("yyyy-MM-dd", "2024-01-01 13:00 PM")).toBeUndefined();
  });

  it("read Unix seconds, milliseconds and Excel serials", () => {
    expect(readInstant("unix-s", "1700000000")).toBe("2023-11-14T22:13:20.000Z");
    expect(readInstant("unix-ms", "1700000000123")).toBe("2023-11-14T22:13:20.123Z");
    expect(readCell("date", "excel-serial", "45323")).toBe("2024-02-01");
    expect(readCell("date", "excel-serial", "1")).toBe("1900-01-01");
    expect(readCell("date", "excel-serial", "61")).toBe("1900-03-01");
    expect(readCell("date", "excel-serial", "60")).toBeUndefined(); // Excel's 1900-02-29
    expect(readCell("timestamp", "excel-serial", "45323.75")).toBe("2024-02-01T18:00:00.000Z");
  });
});

/** The digits of `text` (String(x), no exponent) grouped in threes with `mark`. */
function grouped(text: string, mark: string, decimal: string): string {
  const [whole = "", fraction] = text.split(".");
  const sign = whole.startsWith("-") ? "-" : "";
  const digits = whole.slice(sign.length);
  const groups: string[] = [];
  for (let end = digits.length; end > 0; end -= 3)
    groups.unshift(digits.slice(Math.max(0, end - 3), end));
  return `${sign}${groups.join(mark)}${fraction === undefined ? "" : `${decimal}${fraction}`}`;
}

const finite = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308, 0, -0),
);

describe("number readers", () => {
  it("read any finite double's text back as the same double, grouped or not, in both conventions", () => {
    const formats: NumberTextFormat[] = [
      { decimal: ".", thousands: ",", currency: null, percent: false },
      { decimal: ",", thousands: ".", currency: null, percent: false },
      { decimal: ",", thousands: " ", currency: "€", percent: false },
      { decimal: ".", thousands: "'", currency: "$", percent: false },
    ];
    fc.assert(
      fc.property(finite, fc.constantFrom(...formats), (double, numbers) => {
        // String(-0) is "0": the text names zero.
        const value = Object.is(double, -0) ? 0 : double;
        const text = String(value);
        expect(Object.is(readNumber(plainNumberTextFormat, text), value)).toBe(true);
        if (text.includes("e")) return;
        const written = grouped(text, numbers.thousands ?? "", numbers.decimal);
        expect(Object.is(readNumber(numbers, written), value)).toBe(true);
        const magnitude = grouped(text.replace("-", ""), numbers.thousands ?? "", numbers.decimal);
        if (value !== 0) expect(readNumber(numbers, `(${magnitude})`)).toBe(-Math.abs(value));
        if (numbers.currency) {
          expect(Object.is(readNumber(numbers, `${numbers.currency}${written}`), value)).toBe(true);
          expect(Object.is(readNumber(numbers, `${written} ${numbers.currency}`), value)).toBe(
            true,
          );
        }
      }),
      { ...settings, numRuns: 2_000 },
    );
  });

  it("read percents as the fraction they mean, from the digits", () => {
    const percent = { ...plainNumberTextFormat, percent: true };
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (value) => {
        expect(readNumber(percent, `${value}%`)).toBe(Number(`${value}e-2`));
      }),
      settings,
    );
    expect(readNumber(percent, "12.5%")).toBe(0.125);
    expect(readNumber(percent, "12.5")).toBeUndefined();
    for (const bad of ["1,23", "12,3456.5", "$5", "(-5)", "1e5%", "--5", "5-", "", ".", "1.2.3"]) {
      expect(readNumber(plainNumberTextFormat, bad)).toBeUndefined();
    }
  });

  it("keep digit strings with a leading zero, and long ids, as text", () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 99_999 }).map(String), { maxLength: 50 }),
        fc.stringMatching(/^0[0-9]{1,12}$/),
        fc.nat({ max: 50 }),
        (numbers, id, at) => {
          const cells = [...numbers];
          cells.splice(Math.min(at, cells.length), 0, id);
          const found = detectColumn(cells);
          expect(found).toEqual({ type: "string", format: null });
          expect(readCell(found.type, found.format, id)).toBe(id);
        },
      ),
      settings,
    );
    expect(detectColumn(["4111111111111111", "5500000000000004"]).type).toBe("string");
  });

  it("never type a column as numbers when one of its integers would lose a digit, signed or not", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -99_999, max: 99_999 }).map(String), { maxLength: 50 }),
        fc.oneof(
          fc.bigInt({ min: 2n ** 53n, max: 10n ** 40n }),
          fc.bigInt({ min: -(10n ** 40n), max: -(2n ** 53n) }),
        ),
        fc.constantFrom("", "+"),
        fc.nat({ max: 50 }),
        (numbers, big, plus, at) => {
          const id = big > 0n ? `${plus}${big}` : String(big);
          const cells = [...numbers];
          cells.splice(Math.min(at, cells.length), 0, id);
          const found = detectColumn(cells);
          expect(found.type).toBe("string");
          expect(readCell(found.type, found.format, id)).toBe(id);
        },
      ),
      settings,
    );
  });
});

describe("detectColumn", () => {
  it("decides day-first or month-first from the data, else the default, reported ambiguous", () => {
    fc.assert(
      fc.property(
        fc.array(days, { minLength: 1, maxLength: 40 }),
        fc.constantFrom(...dayMonthPairs),
        (drawn, [first, second]) => {
          // Written in the pair's other order: only a part past 12 tells it from the default.
          const list = drawn.map((day) => writable(second, day));
          const cells = list.map(({ year, month, day }) =>
            format(localDay(year, month, day), second),
          );
          const found = detectColumn(cells);
          if (list.some(({ day }) => day > 12)) {
            expect(found).toEqual({ type: "date", format: second });
          } else {
            expect(found).toEqual({ type: "date", format: first, ambiguous: { other: second } });
          }
          if (found.format === second) {
            expect(cells.map((cell) => readCell("date", found.format, cell))).toEqual(
              list.map(({ year, month, day }) => iso(year, month, day)),
            );
          }
        },
      ),
      settings,
    );
  });

  it("reads a million cells quickly (the fast path, not date-fns parse)", () => {
    const cells = Array.from(
      { length: 1_000_000 },
      (_, index) =>
        `${["Jan", "Feb", "Mar"][index % 3]} ${1 + (index % 28)} ${1990 + (index % 30)}`,
    );
    const numbers = cells.map((_, index) => `$${(index * 1.25).toLocaleString("en-US")}`);
    const dollars: NumberTextFormat = {
      decimal: ".",
      thousands: ",",
      currency: "$",
      percent: false,
    };
    const start = performance.now();
    let read = 0;
    for (const cell of cells) if (readCell("date", "MMM d yyyy", cell) !== undefined) read++;
    const datesMs = performance.now() - start;
    for (const cell of numbers) if (readCell("number", dollars, cell) !== undefined) read++;
    const totalMs = performance.now() - start;
    console.log(
      `[@seed/model readers] 1M "MMM d yyyy" cells: ${datesMs.toFixed(0)} ms; 1M "$1,234.5" cells: ${(totalMs - datesMs).toFixed(0)} ms`,
    );
    expect(read).toBe(2_000_000);
    // date-fns parse takes about 5 s for the dates alone on the same machine.
    expect(totalMs).toBeLessThan(8_000);
  });
});

describe("boolean columns", () => {
  const word = fc
    .tuple(fc.constantFrom("true", "false", "yes", "no"), fc.array(fc.boolean(), { maxLength: 5 }))
    .map(([text, upper]) =>
      [...text].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(""),
    );
  const empty = fc.constantFrom("", "NA", "n/a", "null", "-");

  it("every filled cell true/false or yes/no (any case) makes a boolean column, read as meant", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(word, word, empty), { minLength: 1, maxLength: 60 }),
        (cells) => {
          const filled = cells.filter(
            (cell) => !["", "na", "n/a", "null", "-"].includes(cell.toLowerCase()),
          );
          const detected = detectColumn(cells);
          if (filled.length === 0) {
            expect(detected.type).toBe("string");
            return;
          }
          expect(detected).toEqual({ type: "boolean", format: null });
          for (const cell of filled) {
            const meant = ["true", "yes"].includes(cell.toLowerCase());
            expect(readCell("boolean", null, cell)).toBe(meant);
          }
        },
      ),
      settings,
    );
  });

  it("one cell of anything else keeps the column what the rest suggests (never a boolean)", () => {
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 30 }),
        fc
          .string({ minLength: 1, maxLength: 8 })
          .filter(
            (text) =>
              ![
                "true",
                "false",
                "yes",
                "no",
                "na",
                "n/a",
                "null",
                "-",
                "--",
                "nan",
                "#n/a",
                "\u2014",
              ].includes(text.toLowerCase().trim()) && text.trim() !== "",
          ),
        fc.nat(),
        (cells, other, at) => {
          const mixed = [...cells];
          mixed.splice(at % (cells.length + 1), 0, other);
          expect(detectColumn(mixed).type).not.toBe("boolean");
        },
      ),
      settings,
    );
  });
});
