import { describe } from "vitest";
import { cartesianNeverThrows, logSeed } from "./support";

logSeed("BarChart");

describe("no data, size or option makes a BarChart throw (issue 11)", () => {
  cartesianNeverThrows("BarChart", { stack: "none" });
  cartesianNeverThrows("BarChart", { stack: "stacked" });
  cartesianNeverThrows("BarChart", { stack: "percent" });
  cartesianNeverThrows("BarChart", { stack: "stacked", horizontal: true });
});
