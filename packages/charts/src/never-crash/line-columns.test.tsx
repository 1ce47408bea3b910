import { describe } from "vitest";
import { columnsNeverThrow, logSeed } from "./support";

logSeed("LineChart over columns");

describe("no data, size or option makes a LineChart throw (issue 11)", () => {
  columnsNeverThrow("LineChart");
});
