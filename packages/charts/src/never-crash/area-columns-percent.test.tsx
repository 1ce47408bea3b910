import { describe } from "vitest";
import { columnsNeverThrow, logSeed } from "./support";

logSeed("AreaChart over columns, stack percent");

describe("no data, size or option makes a AreaChart throw (issue 11)", () => {
  columnsNeverThrow("AreaChart", "percent");
});
