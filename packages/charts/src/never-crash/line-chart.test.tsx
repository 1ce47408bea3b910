import { describe } from "vitest";
import { cartesianNeverThrows, columnsNeverThrow, logSeed } from "./support";

logSeed("LineChart");

describe("no data, size or option makes a LineChart throw (issue 11)", () => {
  cartesianNeverThrows("LineChart", {});
  columnsNeverThrow("LineChart");
});
