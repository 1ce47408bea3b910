/** Field-level problems in the shape forms render: one list of messages per field path. */
export interface FieldErrors {
  fieldErrors: Record<string, string[]>;
  formError?: string;
}

export type EntityType = "dataset" | "chart" | "dashboard";

/** Base class so callers can tell store failures from unexpected crashes with one instanceof. */
export class StoreError extends Error {
  override name = "StoreError";
}

/** Input failed validation; nothing was written. */
export class ValidationError extends StoreError {
  override name = "ValidationError";
  readonly fieldErrors: Record<string, string[]>;
  readonly formError: string | undefined;

  constructor(errors: FieldErrors) {
    super(errors.formError ?? describeFieldErrors(errors.fieldErrors));
    this.fieldErrors = errors.fieldErrors;
    this.formError = errors.formError;
  }

  toFieldErrors(): FieldErrors {
    return this.formError === undefined
      ? { fieldErrors: this.fieldErrors }
      : { fieldErrors: this.fieldErrors, formError: this.formError };
  }
}

/** The record changed since the caller read it (optimistic concurrency); nothing was written. */
export class ConflictError extends StoreError {
  override name = "ConflictError";
  constructor(
    readonly entityType: EntityType,
    readonly entityId: string,
    readonly expectedVersion: number,
    readonly currentVersion: number,
  ) {
    super(
      `The ${entityType} was changed by someone else (you edited version ${expectedVersion}, it is now version ${currentVersion}). Reload and apply your change again.`,
    );
  }
}

export class NotFoundError extends StoreError {
  override name = "NotFoundError";
  constructor(
    readonly entityType: EntityType,
    readonly entityId: string,
  ) {
    super(`No ${entityType} with id "${entityId}".`);
  }
}

/** Deleting would leave other records pointing at nothing; nothing was written. */
export class InUseError extends StoreError {
  override name = "InUseError";
  constructor(
    readonly entityType: EntityType,
    readonly entityId: string,
    readonly usedBy: ReadonlyArray<{ entityType: EntityType; id: string; title: string }>,
  ) {
    super(
      `This ${entityType} is still used by ${usedBy
        .map((user) => `${user.entityType} "${user.title}"`)
        .join(", ")}. Remove it there first.`,
    );
  }
}

function describeFieldErrors(fieldErrors: Record<string, string[]>): string {
  const parts = Object.entries(fieldErrors).map(
    ([field, messages]) => `${field}: ${messages.join("; ")}`,
  );
  return parts.length > 0 ? `Invalid input (${parts.join(" | ")})` : "Invalid input";
}
