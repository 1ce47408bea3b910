import type { Permission } from "./access.js";
import type { EntityType } from "./vocabulary.js";

/** Field-level problems in the shape forms render: one list of messages per field path. */
export interface FieldErrors {
  fieldErrors: Record<string, string[]>;
  formError?: string;
  /**
   * The same problems with a precise field path and code, where the flat lists are not enough
   * (a dataset's cells: "rows.<row>.<column>"). Without it, problems come from fieldErrors.
   */
  problems?: FieldProblem[];
}

/** What kind of refusal a store error is; callers branch on this, never on message text. */
export type StoreErrorKind = "invalid" | "conflict" | "not_found" | "in_use" | "forbidden";

/** One problem with one input field ("" for the form as a whole). */
export interface FieldProblem {
  field: string;
  /** "invalid" for a field that failed validation; imports use their own problem codes. */
  code: string;
  message: string;
  /** For a dataset's cells: the row (from 1, in the rows or file given) and column named. */
  row?: number;
  column?: string;
}

/** Base class of every refusal; `kind` says which, so callers need no instanceof or parsing. */
export abstract class StoreError extends Error {
  override name = "StoreError";
  abstract readonly kind: StoreErrorKind;
}

const storeErrorKinds: ReadonlySet<string> = new Set<StoreErrorKind>([
  "invalid",
  "conflict",
  "not_found",
  "in_use",
  "forbidden",
]);

/**
 * The store error in `error`, recognised by its shape rather than its class, so a second copy of
 * this module in another bundle still counts; null for anything else.
 */
export function storeErrorOf(
  error: unknown,
): ValidationError | ConflictError | NotFoundError | InUseError | ForbiddenError | null {
  if (!(error instanceof Error) || !("kind" in error)) return null;
  const kind = (error as { kind: unknown }).kind;
  if (typeof kind !== "string" || !storeErrorKinds.has(kind)) return null;
  if (kind === "invalid" && !("fieldErrors" in error)) return null;
  return error as ValidationError | ConflictError | NotFoundError | InUseError | ForbiddenError;
}

/** Input failed validation; nothing was written. */
export class ValidationError extends StoreError {
  override name = "ValidationError";
  readonly kind = "invalid";
  readonly fieldErrors: Record<string, string[]>;
  readonly formError: string | undefined;
  readonly #problems: FieldProblem[] | undefined;

  constructor(errors: FieldErrors) {
    super(errors.formError ?? describeFieldErrors(errors.fieldErrors));
    this.fieldErrors = errors.fieldErrors;
    this.formError = errors.formError;
    this.#problems = errors.problems;
  }

  /** Every problem with its field and code; a form-level problem has the field "". */
  get problems(): FieldProblem[] {
    if (this.#problems) return [...this.#problems];
    const problems = Object.entries(this.fieldErrors).flatMap(([field, messages]) =>
      messages.map((message): FieldProblem => ({ field, code: "invalid", message })),
    );
    if (this.formError !== undefined) {
      problems.push({ field: "", code: "invalid", message: this.formError });
    }
    return problems;
  }

  toFieldErrors(): FieldErrors {
    return this.formError === undefined
      ? { fieldErrors: this.fieldErrors }
      : { fieldErrors: this.fieldErrors, formError: this.formError };
  }
}

/** A refusal about one record: which type and id it concerns. */
export abstract class RecordError extends StoreError {
  constructor(
    readonly entityType: EntityType,
    readonly entityId: string,
    message: string,
  ) {
    super(message);
  }
}

/** The record changed since the caller read it (optimistic concurrency); nothing was written. */
export class ConflictError extends RecordError {
  override name = "ConflictError";
  readonly kind = "conflict";
  constructor(
    entityType: EntityType,
    entityId: string,
    readonly expectedVersion: number,
    readonly currentVersion: number,
  ) {
    super(
      entityType,
      entityId,
      `The ${entityType} was changed by someone else (you edited version ${expectedVersion}, it is now version ${currentVersion}). Reload and apply your change again.`,
    );
  }
}

export class NotFoundError extends RecordError {
  override name = "NotFoundError";
  readonly kind = "not_found";
  constructor(entityType: EntityType, entityId: string) {
    super(entityType, entityId, `No ${entityType} with id "${entityId}".`);
  }
}

/** Deleting would leave other records pointing at nothing; nothing was written. */
export class InUseError extends RecordError {
  override name = "InUseError";
  readonly kind = "in_use";
  constructor(
    entityType: EntityType,
    entityId: string,
    readonly usedBy: ReadonlyArray<{ entityType: EntityType; id: string; title: string }>,
  ) {
    super(
      entityType,
      entityId,
      `This ${entityType} is still used by ${usedBy
        .map((user) => `${user.entityType} "${user.title}"`)
        .join(", ")}. Remove it there first.`,
    );
  }
}

/** The actor's role (or push token) does not allow this; nothing was written. */
export class ForbiddenError extends StoreError {
  override name = "ForbiddenError";
  readonly kind = "forbidden";
  constructor(
    readonly permission: Permission,
    readonly actorId: string,
    /** Why, when it is not the role (a row limit, a collection's level). */
    reason?: string,
  ) {
    super(reason ?? `Your role does not allow this (it needs the "${permission}" permission).`);
  }
}

function describeFieldErrors(fieldErrors: Record<string, string[]>): string {
  const parts = Object.entries(fieldErrors).map(
    ([field, messages]) => `${field}: ${messages.join("; ")}`,
  );
  return parts.length > 0 ? `Invalid input (${parts.join(" | ")})` : "Invalid input";
}
