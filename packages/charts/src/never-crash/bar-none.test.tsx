import { describe } from "vitest";
import { cartesianNeverThrows, logSeed } from "./support";

logSeed("BarChart stack none");

describe("no data, size or option makes a BarChart throw (issue 11)", () => {
  cartesianNeverThrows("BarChart", { stack: "none" });
});
