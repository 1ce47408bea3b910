import { describe } from "vitest";
import { cartesianNeverThrows, logSeed } from "./support";

logSeed("ComboChart");

describe("no data, size, series kind or axis makes a ComboChart throw (issue 27)", () => {
  cartesianNeverThrows("ComboChart", {});
});
