import { describe, expect, it } from "vitest";
import { csvField, toCsv } from "./csv";

describe("toCsv", () => {
  it("quotes commas, quotes and line breaks as RFC 4180 says, with CRLF line ends", () => {
    const csv = toCsv(
      ["name", "note"],
      [
        ["a, b", 'say "hi"'],
        ["two\nlines", 3],
      ],
    );
    expect(csv).toBe('name,note\r\n"a, b","say ""hi"""\r\n"two\nlines",3\r\n');
  });

  it("neutralises text that a spreadsheet would run as a formula", () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvField("+cmd")).toBe("'+cmd");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tx")).toBe("'\tx");
  });

  it("leaves numbers, negative ones included, as they are", () => {
    expect(csvField(-42.5)).toBe("-42.5");
    expect(csvField("-1,234.5")).toBe('"-1,234.5"');
    expect(csvField("+12%")).toBe("+12%");
    expect(csvField(Number.NaN)).toBe("");
    expect(csvField(null)).toBe("");
  });
});
