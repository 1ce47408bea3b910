import { describe } from "vitest";
import { cartesianNeverThrows, columnsNeverThrow, logSeed } from "./support";

logSeed("AreaChart");

describe("no data, size or option makes a AreaChart throw (issue 11)", () => {
  cartesianNeverThrows("AreaChart", { stack: "none" });
  cartesianNeverThrows("AreaChart", { stack: "stacked" });
  cartesianNeverThrows("AreaChart", { stack: "percent" });
  columnsNeverThrow("AreaChart", "none");
  columnsNeverThrow("AreaChart", "stacked");
  columnsNeverThrow("AreaChart", "percent");
});
