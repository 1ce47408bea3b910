import { describe } from "vitest";
import { logSeed, pieNeverThrows } from "./support";

logSeed("PieChart pie");

describe("no data, size or option makes a PieChart throw (issue 11)", () => {
  pieNeverThrows("pie");
});
