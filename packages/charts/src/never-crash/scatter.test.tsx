import { describe } from "vitest";
import { logSeed, scatterNeverThrows } from "./support";

logSeed("ScatterChart");

describe("no data, size or option makes a ScatterChart throw (issues 11 and 27)", () => {
  scatterNeverThrows();
});
