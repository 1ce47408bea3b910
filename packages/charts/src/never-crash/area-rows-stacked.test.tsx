import { describe } from "vitest";
import { cartesianNeverThrows, logSeed } from "./support";

logSeed("AreaChart stack stacked");

describe("no data, size or option makes a AreaChart throw (issue 11)", () => {
  cartesianNeverThrows("AreaChart", { stack: "stacked" });
});
