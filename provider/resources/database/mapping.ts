/**
 * `Database`'s mapping to and from the API: its resource id (the database's id, which a rename
 * keeps), where it is, and its outputs.
 */
import type { Database } from "../../api";
import { stateOf, type Bag } from "../kit";
import { definedDiff } from "../compare";
import { DATABASE_DEFINITION } from "./definition";

/** The state key of the owner an adopted database had before the stack changed it. */
export const ADOPTED_OWNER_KEY = "__ownerBeforeAdoption";

/** The diff the definition derives (replaces, updates) for a database's old and new inputs. */
export const diffDatabase = (olds: Bag, news: Bag) => definedDiff(DATABASE_DEFINITION, olds, news);

/** `database "app" (id 123) of branch br-…`. */
export const describeDatabase = (d: { name: string; branch_id: string; id?: number }): string =>
  `database "${d.name}"${d.id !== undefined ? ` (id ${d.id})` : ""} of branch ${d.branch_id}`;

/** The outputs: the inputs as given (for the next diff) and the database as it is. */
export function toOutputs(inputs: Bag, projectId: string, db: Database, extra: Bag = {}): Bag {
  const outs: Bag = {
    ...inputs,
    ...extra,
    projectId,
    branchId: db.branch_id,
    name: db.name,
    ownerName: db.owner_name,
    databaseId: db.id,
    createdAt: db.created_at,
  };
  return stateOf(DATABASE_DEFINITION, inputs, outs);
}
