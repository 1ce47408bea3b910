// What a link can carry of a value (a category filter's chosen value, a value a chart is drilled
// into): links trim values and bound their length, so a blank value, one longer than the limit
// or one with spaces at its ends would not come back as it went. The one home of that rule.

/** Characters (code points) of one value a link carries. */
export const maxLinkValueLength = 100;

/** Whether a value can be chosen through a link and read back as it is. */
export function linkableFilterValue(value: string): boolean {
  return (
    value !== "" &&
    value.trim() === value &&
    [...value].length <= maxLinkValueLength &&
    !loneSurrogate.test(value)
  );
}

// Half of a UTF-16 pair alone: URLs cannot carry it (it reads back as U+FFFD).
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
