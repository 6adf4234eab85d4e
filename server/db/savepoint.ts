import type { Queryable } from "./database";
import { isUniqueViolation } from "./errors";

/**
 * Runs `work` in a savepoint of the transaction `tx`: true when it went through; false, with all it wrote undone and
 * the transaction usable again, when a unique key refused one of its rows. For writes that take rows to be new and
 * have another way when one was there after all; any other error is thrown, the transaction failed. Calls may nest:
 * a savepoint's name means its newest one.
 */
export async function unlessDuplicate(tx: Queryable, work: () => Promise<unknown>): Promise<boolean> {
  await tx.query("SAVEPOINT unless_duplicate");
  try {
    await work();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Rolled back to, a savepoint stays; released, it is gone, and an enclosing call's name means its own again.
    await tx.query("ROLLBACK TO SAVEPOINT unless_duplicate");
    await tx.query("RELEASE SAVEPOINT unless_duplicate");
    return false;
  }
  await tx.query("RELEASE SAVEPOINT unless_duplicate");
  return true;
}
