// Test helper (not part of any build entry): an RFC 4180 reader written apart from the kit's
// writer (src/export/csv.ts), so a round trip checks the writer against the format, not itself.

/** The records of an RFC 4180 text: quoted fields may hold commas, quotes ("") and line breaks. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

/** A text cell as the kit wrote it, with its spreadsheet-formula guard (a leading ') taken off. */
export function unguard(cell: string, original: string): string {
  return /^[=+\-@\t\r]/.test(original) && cell === `'${original}` ? original : cell;
}
