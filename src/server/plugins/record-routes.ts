import type { Static, TSchema } from "@sinclair/typebox";
import { Elysia } from "elysia";
import { adminJson, NumericId, TextId } from "./admin-route.ts";

/** How a record's id stands in its address, and the value its service takes. */
interface RecordId<Id> {
  params: typeof NumericId | typeof TextId;
  read(id: string): Id;
}

export const numericId: RecordId<number> = { params: NumericId, read: Number };
export const textId: RecordId<string> = { params: TextId, read: (id) => id };

/** A record the admin lists, creates, updates and deletes, and its service's four calls. */
interface AdminRecord<Path extends string, S extends TSchema, Id, Row, Listed> {
  /** The plugin's name (Elysia adds a named plugin once). */
  name: string;
  /** One record's address: the list is at `/<path>s`, a record at `/<path>` and `/<path>/:id`. */
  path: Path;
  /** What create and update take. */
  schema: S;
  id: RecordId<Id>;
  list(): Promise<Listed>;
  create(input: Static<S>): Promise<Row>;
  update(id: Id, input: Static<S>): Promise<Row>;
  remove(id: Id): Promise<void>;
  /** The answer to a delete, e.g. "Offer deleted". */
  deleted: string;
}

/**
 * The four admin routes of a record, mounted under /api/admin behind the admin guard (see
 * app.ts): the list, a create answered 201, an update and a delete. The paths keep their
 * literal types, so the typed admin client names each route.
 */
export function adminRecordRoutes<const Path extends string, S extends TSchema, Id, Row, Listed>(
  record: AdminRecord<Path, S, Id, Row, Listed>,
) {
  const { path, schema, id } = record;
  return new Elysia({ name: record.name })
    .get(`/${path}s` as `/${Path}s`, () => record.list())
    .post(
      `/${path}` as `/${Path}`,
      async ({ body, set }) => {
        set.status = 201;
        return await record.create(body as Static<S>);
      },
      adminJson(schema),
    )
    .put(`/${path}/:id` as `/${Path}/:id`, ({ params, body }) => record.update(id.read(params.id), body as Static<S>), {
      ...adminJson(schema),
      params: id.params,
    })
    .delete(
      `/${path}/:id` as `/${Path}/:id`,
      async ({ params }) => {
        await record.remove(id.read(params.id));
        return { message: record.deleted };
      },
      { params: id.params },
    );
}
