/**
 * Lower-case ASCII words joined by single hyphens, accents dropped and no hyphen at either end,
 * cut to `maxLength` characters ("Café Crème!" -> "cafe-creme"). For slugs and URL parameter names.
 */
export function slugWords(text: string, maxLength: number): string {
  return text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, maxLength);
}

/**
 * What every slug the API and files name things by looks like (a dashboard's, a dataset's):
 * lowercase letters and digits in words joined by single hyphens or underscores.
 */
export const slugPattern = /^[a-z0-9]+(?:[-_][a-z0-9]+)*$/;
