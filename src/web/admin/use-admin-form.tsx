import type { Static, TSchema } from "@sinclair/typebox";
import {
  type Dispatch,
  type FormEvent,
  type ReactNode,
  type RefObject,
  type SetStateAction,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { formErrors } from "#web/admin/form-errors.ts";
import { LEAVE_QUESTION, useLeaveWarning } from "#web/admin/leave-warning.ts";
import { serverFieldErrors } from "#web/lib/query-client.ts";
import { revealHeading } from "#web/lib/scroll.ts";
import { type ToastInput, toast, toastError } from "#web/stores/toast.ts";

type Errors = Record<string, string>;

function Elsewhere({ errors, shown }: { errors: Errors; shown: RefObject<Set<string>> }) {
  const rest = Object.entries(errors).filter(([field]) => !shown.current.has(field));
  if (!rest.length) return null;
  return (
    <div className="field-error" data-form-problems tabIndex={-1}>
      {rest.map(([field, message]) => (
        <p key={field}>
          {field}: {message}
        </p>
      ))}
    </div>
  );
}

/** The value at a field path such as `platformA.url`, as text to compare. */
function at(value: unknown, path: string): string {
  let current = value;
  for (const key of path.split(".")) {
    current = current && typeof current === "object" ? (current as Record<string, unknown>)[key] : undefined;
  }
  return JSON.stringify(current ?? null);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** An admin form: its value `T` and the body `B` it sends (the schema's type). */
export interface AdminForm<T, B> {
  form: T;
  setForm: Dispatch<SetStateAction<T>>;
  set: <K extends keyof T>(key: K, value: T[K]) => void;
  dirty: boolean;
  error(field: string): string | undefined;
  bind<K extends keyof T & string>(key: K): { value: T[K]; onChange: (value: T[K]) => void; error?: string };
  formProps(send: (body: B, value: T) => void): {
    ref: RefObject<HTMLFormElement>;
    noValidate: true;
    onSubmit(event: FormEvent): void;
  };
  refused(error: unknown, body: B): void;
  accepted(value: T, next?: T): void;
  leave(go: () => void): void;
  elsewhere: ReactNode;
}

interface Options<S extends TSchema, T> {
  /** The schema the server checks the body against. */
  schema: S;
  /** The value the form was loaded with: leaving with any other value asks first. */
  initial: T;
  /**
   * The body sent for a form value whose shape is not the body's (a choice that becomes a number,
   * typed text that becomes one). The schema checks it before it is sent, so `send` gets a `Static<S>`.
   */
  body?: (form: T) => unknown;
}

/**
 * One admin form's value, its problems and its unsaved state. The form's value is the schema's own
 * type (`Static<schema>`, or a narrower one: every field present), the body it sends, so the form
 * and what the server checks cannot drift; a form that holds something else says how it becomes
 * the body (`body`). After a submit with
 * problems each message shows at its field (through `error(key)`), focus goes to the first invalid
 * control, and from then on every message follows the value: it goes once the field is fixed and
 * comes back if it is broken again. The server's messages (a 422) stay until their field changes.
 * Problems of fields the form does not show are listed by `<editor.Elsewhere />`, so none is lost.
 */
export function useAdminForm<S extends TSchema, T extends Static<S> = Static<S>>(options: {
  schema: S;
  initial: T;
}): AdminForm<T, T>;
export function useAdminForm<S extends TSchema, T>(
  options: Options<S, T> & { body: (form: T) => unknown },
): AdminForm<T, Static<S>>;
export function useAdminForm<S extends TSchema, T>({
  initial,
  schema,
  body = (form) => form,
}: Options<S, T>): AdminForm<T, Static<S>> {
  const [form, setForm] = useState<T>(initial);
  const [saved, setSaved] = useState<T>(initial);
  const [checking, setChecking] = useState(false);
  const [server, setServer] = useState<{ errors: Errors; sent: unknown }>({ errors: {}, sent: null });
  const [focusRequest, setFocusRequest] = useState(0);
  const ref = useRef<HTMLFormElement>(null);
  const shown = useRef(new Set<string>());
  shown.current = new Set();

  const sent = body(form);
  const sentKey = JSON.stringify(sent);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the body is compared by its text
  const errors = useMemo<Errors>(() => {
    const current = checking ? formErrors(schema, sent) : {};
    for (const [field, message] of Object.entries(server.errors)) {
      if (!(field in current) && at(sent, field) === at(server.sent, field)) current[field] = message;
    }
    return current;
  }, [checking, schema, sentKey, server]);

  const dirty = !same(form, saved);
  useLeaveWarning(dirty);

  useEffect(() => {
    if (!focusRequest || !ref.current) return;
    const first = ref.current.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-problems]');
    // The field's label shows too, not only its control.
    if (first) revealHeading(first, first.closest<HTMLElement>(".field, label") ?? first);
  }, [focusRequest]);

  return {
    form,
    setForm,
    set: <K extends keyof T>(key: K, value: T[K]) => setForm((f) => ({ ...f, [key]: value })),
    dirty,
    /** The message for a field, and a note that the form shows this field. */
    error(field: string): string | undefined {
      shown.current.add(field);
      return errors[field];
    },
    /** A field's value, its setter and its message, for a control that takes `value`, `onChange` and `error`. */
    bind<K extends keyof T & string>(key: K) {
      shown.current.add(key);
      return {
        value: form[key],
        onChange: (value: T[K]) => setForm((f) => ({ ...f, [key]: value })),
        error: errors[key],
      };
    },
    /** Props for the <form>: checks the value and calls `send` with the body only when it has no problems. */
    formProps(send: (body: Static<S>, value: T) => void) {
      return {
        ref: ref as RefObject<HTMLFormElement>,
        noValidate: true,
        onSubmit(event: FormEvent) {
          event.preventDefault();
          setChecking(true);
          setServer({ errors: {}, sent: null });
          if (Object.keys(formErrors(schema, sent)).length) {
            setFocusRequest((n) => n + 1);
            return;
          }
          // Checked just above: the body is what the schema describes.
          send(sent as Static<S>, form);
        },
      };
    },
    /** The server refused the body: its field messages show like the form's own. */
    refused(error: unknown, body: Static<S>) {
      const fromServer = serverFieldErrors(error);
      setServer({ errors: fromServer, sent: body });
      if (Object.keys(fromServer).length) setFocusRequest((n) => n + 1);
    },
    /** The value was saved: it is the new loaded value (or `next`, which the form then shows). */
    accepted(value: T, next?: T) {
      setSaved(next ?? value);
      if (next !== undefined) setForm(next);
      setChecking(false);
      setServer({ errors: {}, sent: null });
    },
    /** Leaves (Cancel) after asking, when the form holds unsaved changes. */
    leave(go: () => void) {
      if (!dirty || window.confirm(LEAVE_QUESTION)) go();
    },
    /** Problems of fields this form does not show (none in a well-made form): listed, never lost. Place it last. */
    elsewhere: <Elsewhere errors={errors} shown={shown} />,
  };
}

/**
 * Sends a form's body with `save` and tells the admin how it went. Saved: the value becomes the
 * form's loaded one (or `next`, which the form then shows), a toast says `saved` (a text is the
 * description under "Success") and `done` runs. Refused: the server's field messages show at their
 * fields and a toast says `failed` (a function reads the failure), or the server's reason.
 */
export function saveForm<T, B>(
  editor: Pick<AdminForm<T, B>, "accepted" | "refused">,
  save: { mutate(body: B, on: { onSuccess(): void; onError(failure: Error): void }): void },
  body: B,
  value: T,
  {
    saved,
    failed,
    next,
    done,
  }: { saved: string | ToastInput; failed?: string | ((failure: Error) => string); next?: T; done?: () => void },
) {
  save.mutate(body, {
    onSuccess: () => {
      editor.accepted(value, next);
      toast(typeof saved === "string" ? { title: "Success", description: saved } : saved);
      done?.();
    },
    onError: (failure) => {
      editor.refused(failure, body);
      toastError(typeof failed === "function" ? failed(failure) : (failed ?? failure.message));
    },
  });
}

/** The end of an admin form: problems it shows nowhere else, Cancel (asking first when there are changes) and its submit button. */
export function FormEnd({
  editor,
  save,
  onCancel,
  submit,
}: {
  editor: { elsewhere: ReactNode; leave: (go: () => void) => void };
  /** The change that saves the form: its button is busy while it runs. */
  save: { isPending: boolean };
  onCancel: () => void;
  /** The submit button's label while nothing is being saved. */
  submit: string;
}) {
  const pending = save.isPending;
  return (
    <>
      {editor.elsewhere}
      <div className="form-actions">
        <button type="button" className="secondary outline" onClick={() => editor.leave(onCancel)}>
          Cancel
        </button>
        <button type="submit" disabled={pending} aria-busy={pending}>
          {pending ? "Saving..." : submit}
        </button>
      </div>
    </>
  );
}
