import { NotFoundError, ValidationError } from "@seed/model";

/** A tile's problem as one sentence for the page (query errors name the column). */
export function tileError(error: unknown): string {
  if (error instanceof ValidationError) {
    const first = Object.values(error.fieldErrors).flat()[0];
    if (first) return first;
  }
  if (error instanceof NotFoundError) return "The dataset of this tile no longer exists.";
  throw error;
}
