import type { Static, TSchema } from "@sinclair/typebox";
import { Elysia, t } from "elysia";
import type { Db } from "#server/db/types.ts";
import { adminJson, NumericId, TextId } from "./admin-route.ts";

/** How a record's id stands in its address, and the value its service takes. */
interface RecordId<Id> {
  params: typeof NumericId | typeof TextId;
  read(id: string): Id;
}

export const numericId: RecordId<number> = { params: NumericId, read: Number };
export const textId: RecordId<string> = { params: TextId, read: (id) => id };

/** The list's query string when the record declares none: every parameter is left out. */
const NO_QUERY = t.Object({});

/** A record the admin lists, creates, updates and deletes. */
interface AdminRecord<S extends TSchema, Id, Row, Listed, Q extends TSchema> {
  id: RecordId<Id>;
  /** The answer to a delete, e.g. "Offer deleted". */
  deleted: string;
  /**
   * The list's query string (a page, a search), checked: a bad value is a 422 naming the
   * parameter. Absent: the list reads none, and any parameter sent is ignored.
   */
  listQuery?: Q;
  /** The feature's service calls behind the routes. */
  service: {
    list(db: Db, query: Static<Q>): Promise<Listed>;
    create(db: Db, input: Static<S>): Promise<Row>;
    update(db: Db, id: Id, input: Static<S>): Promise<Row>;
    remove(db: Db, id: Id): Promise<void>;
  };
}

/** A record whose editor opens it by id: its service also answers one record (or throws a 404). */
interface AdminRecordById<S extends TSchema, Id, Row, Listed, Q extends TSchema>
  extends AdminRecord<S, Id, Row, Listed, Q> {
  service: AdminRecord<S, Id, Row, Listed, Q>["service"] & { get(db: Db, id: Id): Promise<Row> };
}

/** The list, create, update and delete routes. */
function recordRoutes<const Path extends string, S extends TSchema, Id, Row, Listed, Q extends TSchema>(
  db: Db,
  path: Path,
  schema: S,
  record: AdminRecord<S, Id, Row, Listed, Q>,
) {
  const { id, service } = record;
  return new Elysia({ name: `${path} admin` })
    .get(`/${path}s` as `/${Path}s`, ({ query }) => service.list(db, query as Static<Q>), {
      query: (record.listQuery ?? NO_QUERY) as Q,
    })
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

/** The four routes, and one record's GET at `/<path>/:id`. */
function recordRoutesById<const Path extends string, S extends TSchema, Id, Row, Listed, Q extends TSchema>(
  db: Db,
  path: Path,
  schema: S,
  record: AdminRecordById<S, Id, Row, Listed, Q>,
) {
  const { id, service } = record;
  return recordRoutes(db, path, schema, record).get(
    `/${path}/:id` as `/${Path}/:id`,
    ({ params }) => service.get(db, id.read(params.id)),
    { params: id.params },
  );
}

/**
 * The admin routes of a record, mounted under /api/admin behind the admin guard (see app.ts):
 * the list at `/<path>s` (its query string checked against `listQuery` when given), a create
 * at `/<path>` answered 201, an update and a delete at `/<path>/:id`, the bodies checked
 * against `schema`; and, when the service has `get`, one record at GET `/<path>/:id` (a list
 * that holds only what its rows show, the editor asks for the whole record). The paths keep
 * their literal types, so the typed admin client names each route.
 */
export function adminRecordRoutes<
  const Path extends string,
  S extends TSchema,
  Id,
  Row,
  Listed,
  Q extends TSchema = typeof NO_QUERY,
>(
  db: Db,
  path: Path,
  schema: S,
  record: AdminRecordById<S, Id, Row, Listed, Q>,
): ReturnType<typeof recordRoutesById<Path, S, Id, Row, Listed, Q>>;
export function adminRecordRoutes<
  const Path extends string,
  S extends TSchema,
  Id,
  Row,
  Listed,
  Q extends TSchema = typeof NO_QUERY,
>(
  db: Db,
  path: Path,
  schema: S,
  record: AdminRecord<S, Id, Row, Listed, Q>,
): ReturnType<typeof recordRoutes<Path, S, Id, Row, Listed, Q>>;
export function adminRecordRoutes<const Path extends string, S extends TSchema, Id, Row, Listed, Q extends TSchema>(
  db: Db,
  path: Path,
  schema: S,
  record: AdminRecord<S, Id, Row, Listed, Q> | AdminRecordById<S, Id, Row, Listed, Q>,
) {
  return "get" in record.service
    ? recordRoutesById(db, path, schema, record as AdminRecordById<S, Id, Row, Listed, Q>)
    : recordRoutes(db, path, schema, record);
}
