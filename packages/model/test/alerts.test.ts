import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AlertCondition,
  type AlertState,
  alertConditionSchema,
  alertHolds,
  alertInputSchema,
  alertStep,
  describeAlertCondition,
} from "../src/index.js";

// An alert fires once when its condition starts to hold and resolves once when it stops: the
// property runs long random series of checks (values at the extremes, gaps with no value,
// snoozes) and compares every recorded event with the transitions of the readable answers.

const seed = Number(process.env.SEED ?? Date.now() % 2_147_483_647);
console.log(`alerts property seed: ${seed} (SEED=${seed} repeats it)`);
const runs = { seed, numRuns: 500 };

const extremeNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, -1, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE, 1e-300),
  fc.integer({ min: -1_000, max: 1_000 }),
);

const condition: fc.Arbitrary<AlertCondition> = fc.oneof(
  fc.record({ kind: fc.constant("above" as const), value: extremeNumber }),
  fc.record({ kind: fc.constant("below" as const), value: extremeNumber }),
  fc.record({
    kind: fc.constant("change" as const),
    percent: fc.oneof(fc.double({ min: 0.001, max: 1_000_000, noNaN: true }), fc.constant(10)),
    direction: fc.constantFrom("up" as const, "down" as const, "either" as const),
  }),
  fc.record({ kind: fc.constant("stale" as const), hours: fc.integer({ min: 1, max: 2_160 }) }),
);

describe("alert conditions", () => {
  it("answers every reading with a boolean or null, never a throw, and as each kind says", () => {
    fc.assert(
      fc.property(
        condition,
        fc.option(extremeNumber, { nil: null }),
        fc.option(extremeNumber, { nil: null }),
        fc.option(fc.integer({ min: 0, max: 4_000_000_000_000 }), { nil: null }),
        fc.integer({ min: 0, max: 4_000_000_000_000 }),
        (rule, value, previous, rowsChangedAt, now) => {
          const holds = alertHolds(rule, { value, previous, rowsChangedAt }, now);
          expect([true, false, null]).toContain(holds);
          if (rule.kind === "above" || rule.kind === "below") {
            if (value === null) expect(holds).toBeNull();
            else
              expect(holds).toBe(rule.kind === "above" ? value > rule.value : value < rule.value);
          }
          if (rule.kind === "change" && (value === null || previous === null || previous === 0)) {
            expect(holds).toBeNull();
          }
          if (rule.kind === "change" && holds !== null && value !== null && previous !== null) {
            // A change in the watched direction is needed to hold.
            if (rule.direction === "up" && holds) expect(value).toBeGreaterThan(previous);
            if (rule.direction === "down" && holds) expect(value).toBeLessThan(previous);
            if (value === previous) expect(holds).toBe(false);
          }
          if (rule.kind === "stale") {
            if (rowsChangedAt === null) expect(holds).toBeNull();
            else expect(holds).toBe(now - rowsChangedAt > rule.hours * 3_600_000);
          }
        },
      ),
      runs,
    );
  });

  it("reads a change against the period before, either way", () => {
    const tenPercent = (direction: "up" | "down" | "either") =>
      ({ kind: "change", percent: 10, direction }) as const;
    const at = (value: number, previous: number, direction: "up" | "down" | "either") =>
      alertHolds(tenPercent(direction), { value, previous, rowsChangedAt: null }, 0);
    expect(at(111, 100, "up")).toBe(true);
    expect(at(110, 100, "up")).toBe(false);
    expect(at(89, 100, "down")).toBe(true);
    expect(at(89, 100, "up")).toBe(false);
    expect(at(-89, -100, "up")).toBe(true);
    expect(at(89, 100, "either")).toBe(true);
    expect(at(5, 0, "either")).toBeNull();
  });

  it("fires once when the condition starts to hold and resolves once, quiet while snoozed", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            holds: fc.constantFrom(true, false, null),
            snoozed: fc.boolean(),
          }),
          { minLength: 1, maxLength: 200 },
        ),
        (checks) => {
          let state: AlertState = "ok";
          let known = false;
          const events: string[] = [];
          for (const [index, check] of checks.entries()) {
            const now = index * 60_000;
            const step = alertStep(state, check.holds, check.snoozed ? now + 1 : null, now);
            const changed = check.holds !== null && check.holds !== known;
            // An event exactly when a readable answer differs from the last one.
            expect(step.event !== null).toBe(changed);
            if (changed) {
              expect(step.event).toBe(check.holds ? "fired" : "resolved");
              expect(step.notify).toBe(!check.snoozed);
              events.push(step.event as string);
              known = check.holds as boolean;
            } else {
              expect(step.notify).toBe(false);
            }
            state = step.state;
            expect(state).toBe(known ? "firing" : "ok");
          }
          // Fired and resolved alternate, starting with a firing.
          events.forEach((event, index) => {
            expect(event).toBe(index % 2 === 0 ? "fired" : "resolved");
          });
        },
      ),
      runs,
    );
  });

  it("checks each field of a condition with its own message, and says it in words", () => {
    const bad = alertConditionSchema.safeParse({ kind: "change", percent: 0, direction: "up" });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(["percent"]);
    expect(alertConditionSchema.safeParse({ kind: "above", value: Number.NaN }).success).toBe(
      false,
    );
    expect(alertConditionSchema.safeParse({ kind: "stale", hours: 0.5 }).success).toBe(false);
    expect(describeAlertCondition({ kind: "above", value: 1000 })).toBe("above 1,000");
    expect(describeAlertCondition({ kind: "change", percent: 10, direction: "down" })).toBe(
      "changes by more than 10 % (down) against the period before",
    );
    expect(describeAlertCondition({ kind: "stale", hours: 1 })).toBe("no new rows for 1 hour");
  });
});

describe("alertInputSchema", () => {
  const base = {
    name: "Revenue over 500",
    target: { kind: "stat", dashboardId: "d1", tileId: "t1" },
    condition: { kind: "above", value: 500 },
    recipients: ["ann@example.com"],
  };
  const errorsOf = (input: unknown) => {
    const parsed = alertInputSchema.safeParse(input);
    return parsed.success
      ? {}
      : Object.fromEntries(
          parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]),
        );
  };

  it("reads a whole alert with its defaults", () => {
    expect(alertInputSchema.parse(base)).toMatchObject({
      checkEveryMinutes: 60,
      enabled: true,
      webhooks: [],
      recipients: [{ address: "ann@example.com", key: "ann@example.com" }],
    });
  });

  it("names each mistake at its field", () => {
    expect(errorsOf({ ...base, recipients: [] })).toEqual({
      recipients: "Add a recipient or a webhook: an alert nobody hears is no alert.",
    });
    expect(errorsOf({ ...base, recipients: ["not an address"] })).toHaveProperty(["recipients.0"]);
    expect(errorsOf({ ...base, checkEveryMinutes: 7 })).toHaveProperty(["checkEveryMinutes"]);
    expect(errorsOf({ ...base, condition: { kind: "above", value: Number.NaN } })).toEqual({
      "condition.value": "Enter the threshold as a number.",
    });
    expect(errorsOf({ ...base, target: { kind: "chart", chartId: "c1", series: "" } })).toEqual({
      "target.series": "Choose a measure.",
    });
    const hook = "https://hooks.example.com/a";
    expect(
      errorsOf({ ...base, webhooks: [{ url: hook }, { url: hook, format: "slack" }] }),
    ).toEqual({ "webhooks.1.url": "This webhook is listed twice." });
    expect(errorsOf({ ...base, webhooks: [{ format: "json" }] })).toEqual({
      "webhooks.0.url": "Enter the webhook's address.",
    });
    expect(errorsOf({ ...base, webhooks: [{ url: "ftp://x.example" }] })).toHaveProperty([
      "webhooks.0.url",
    ]);
    // A kept webhook is named by its id alone: its address is never sent back.
    expect(errorsOf({ ...base, webhooks: [{ id: "w1", format: "json" }] })).toEqual({});
  });
});
