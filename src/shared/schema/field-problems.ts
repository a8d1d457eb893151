// Imports nothing: the browser's API client reads server answers with it on every page,
// and pages that validate nothing must not ship a schema library.

/** One problem with a submitted value: the field's path (`slug`, `platformA.url`, `answers.3`) and what is wrong. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A schema error as TypeBox reports it (Elysia's validation errors carry the same fields). */
export interface SchemaError {
  path: string;
  message: string;
  /** The value at `path`, for an `error` that names what is wrong with it. */
  value?: unknown;
  schema?: { error?: unknown };
}

/**
 * THE conversion from schema errors to the messages a user reads, used by the server's
 * JSON body parser, its validation errors, and the admin forms: the schema's own `error`
 * text where it has one (or what its `error` function says of the value), and the first
 * problem of each field only.
 */
export function fieldProblems(errors: Iterable<SchemaError>): FieldProblem[] {
  const problems = new Map<string, string>();
  for (const error of errors) {
    const field = error.path.replace(/^\//, "").replaceAll("/", ".") || "(body)";
    if (problems.has(field)) continue;
    const own = error.schema?.error;
    problems.set(
      field,
      typeof own === "string"
        ? own
        : typeof own === "function"
          ? String((own as (found: { value?: unknown }) => unknown)({ value: error.value }))
          : error.message,
    );
  }
  return [...problems].map(([field, message]) => ({ field, message }));
}

/** The problems keyed by field, as a form shows them beside its inputs. */
export function messagesByField(problems: readonly FieldProblem[]): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const { field, message } of problems) messages[field] ??= message;
  return messages;
}

/** True when a value (such as an error's `details`) is a list of field problems. */
export function isFieldProblems(value: unknown): value is FieldProblem[] {
  return Array.isArray(value) && value.every((p) => typeof p?.field === "string" && typeof p?.message === "string");
}
