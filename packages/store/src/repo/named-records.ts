import { ValidationError } from "@seed/model";
import { type Executor, isUniqueViolation } from "../context.js";

// Records people name and find by name (groups, collections): one record per name key
// (nameKey in @seed/model), a most per instance, and a race for a name refused, not a crash.

/** The tables of such records, and what their pages call one and many. */
const namedTables = {
  account_groups: { one: "group", many: "groups" },
  collections: { one: "collection", many: "collections" },
} as const;
type NamedTable = keyof typeof namedTables;

/** The field error for a name another record of the table has. */
export function takenName(table: NamedTable, name: string): ValidationError {
  return new ValidationError({
    fieldErrors: { name: [`There is already a ${namedTables[table].one} named ${name}.`] },
  });
}

/** Refuses a name key another record of the table (not `exceptId`) has. */
export async function refuseTakenName(
  db: Executor,
  table: NamedTable,
  key: string,
  exceptId: string | null,
): Promise<void> {
  const taken = await db
    .selectFrom(table)
    .select(["id", "name"])
    .where("name_key", "=", key)
    .executeTakeFirst();
  if (taken && taken.id !== exceptId) throw takenName(table, taken.name);
}

/** Refuses one more record when the table has its most. */
export async function refuseAtLimit(db: Executor, table: NamedTable, most: number): Promise<void> {
  const count = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= most) {
    throw new ValidationError({
      fieldErrors: {},
      formError: `This instance has its most ${namedTables[table].many} (${most}); delete one first.`,
    });
  }
}

/** A write that another's write of the same name (or row) beat: refused with `refusal`, not a crash. */
export async function refusingRaces<T>(
  write: () => Promise<T>,
  refusal: () => ValidationError,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw refusal();
    throw error;
  }
}
