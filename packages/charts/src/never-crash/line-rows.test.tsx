import { describe } from "vitest";
import { cartesianNeverThrows, logSeed } from "./support";

logSeed("LineChart over rows");

describe("no data, size or option makes a LineChart throw (issue 11)", () => {
  cartesianNeverThrows("LineChart", {});
});
