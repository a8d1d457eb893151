import type { Static, TSchema } from "@sinclair/typebox";
import { Elysia } from "elysia";
import type { Db } from "#server/db/types.ts";
import { adminJson, NumericId, TextId } from "./admin-route.ts";

/** How a record's id stands in its address, and the value its service takes. */
interface RecordId<Id> {
  params: typeof NumericId | typeof TextId;
  read(id: string): Id;
}

export const numericId: RecordId<number> = { params: NumericId, read: Number };
export const textId: RecordId<string> = { params: TextId, read: (id) => id };

/** A record the admin lists, creates, updates and deletes. */
interface AdminRecord<S extends TSchema, Id, Row, Listed> {
  id: RecordId<Id>;
  /** The answer to a delete, e.g. "Offer deleted". */
  deleted: string;
  /** The feature's service calls behind the four routes. */
  service: {
    list(db: Db): Promise<Listed>;
    create(db: Db, input: Static<S>): Promise<Row>;
    update(db: Db, id: Id, input: Static<S>): Promise<Row>;
    remove(db: Db, id: Id): Promise<void>;
  };
}

/**
 * The four admin routes of a record, mounted under /api/admin behind the admin guard (see
 * app.ts): the list at `/<path>s`, a create at `/<path>` answered 201, an update and a delete
 * at `/<path>/:id`, the bodies checked against `schema`. The paths keep their literal types,
 * so the typed admin client names each route.
 */
export function adminRecordRoutes<const Path extends string, S extends TSchema, Id, Row, Listed>(
  db: Db,
  path: Path,
  schema: S,
  record: AdminRecord<S, Id, Row, Listed>,
) {
  const { id, service } = record;
  return new Elysia({ name: `${path} admin` })
    .get(`/${path}s` as `/${Path}s`, () => service.list(db))
    .post(
      `/${path}` as `/${Path}`,
      async ({ body, set }) => {
        set.status = 201;
        return await service.create(db, body as Static<S>);
      },
      adminJson(schema),
    )
    .put(
      `/${path}/:id` as `/${Path}/:id`,
      ({ params, body }) => service.update(db, id.read(params.id), body as Static<S>),
      {
        ...adminJson(schema),
        params: id.params,
      },
    )
    .delete(
      `/${path}/:id` as `/${Path}/:id`,
      async ({ params }) => {
        await service.remove(db, id.read(params.id));
        return { message: record.deleted };
      },
      { params: id.params },
    );
}
