// Reading the stylesheets the tests check: a rule's declarations and a colour token's value.

/** The declarations of the first rule whose selector list starts with `selector` in `css`. */
export function ruleOf(css: string, selector: string): string {
  const start =
    css.indexOf(`${selector} {`) >= 0 ? css.indexOf(`${selector} {`) : css.indexOf(`${selector},`);
  if (start < 0) throw new Error(`no rule for ${selector}`);
  const open = css.indexOf("{", start);
  return css.slice(open + 1, css.indexOf("}", open));
}

/** A token's own colour, or the fallback of `var(--seed-color-…, #hex)`, in lower case. */
export function colourToken(rule: string, name: string): string {
  const match = rule.match(new RegExp(`${name}:\\s*(?:var\\([^,]+,\\s*)?(#[0-9a-f]{6})`, "i"));
  if (!match?.[1]) throw new Error(`${name} has no hex colour`);
  return match[1].toLowerCase();
}
