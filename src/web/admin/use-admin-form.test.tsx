import { afterEach, beforeEach, expect, spyOn, test } from "bun:test";
import { type Static, Type } from "@sinclair/typebox";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { fieldMessage } from "#tests/support/field-message.ts";
import { Check, Field } from "#web/admin/field.tsx";
import { LEAVE_QUESTION } from "#web/admin/leave-warning.ts";
import { type AdminForm, useAdminForm } from "#web/admin/use-admin-form.tsx";
import { ApiError } from "#web/lib/query-client.ts";

const Schema = Type.Object({
  name: Type.String({ minLength: 1, error: "Name is required" }),
  email: Type.String({ pattern: "@", error: "Email needs an @" }),
  agreed: Type.Literal(true, { error: "Tick to agree" }),
  hidden: Type.String({ minLength: 1, error: "Hidden is required" }),
});
// The box starts unticked: a value the schema refuses until it is ticked.
type Form = Omit<Static<typeof Schema>, "agreed"> & { agreed: boolean };
const EMPTY: Form = { name: "", email: "", agreed: false, hidden: "" };

let confirm: ReturnType<typeof spyOn<Window, "confirm">>;
let answer = false;
beforeEach(() => {
  answer = false;
  confirm = spyOn(window, "confirm").mockImplementation(() => answer);
});
afterEach(() => {
  confirm.mockRestore();
  cleanup();
});

function Editor({
  initial = EMPTY,
  send = () => {},
  onCancel = () => {},
  showHidden = false,
}: {
  initial?: Form;
  send?: (body: Static<typeof Schema>, value: Form, editor: AdminForm<Form, Static<typeof Schema>>) => void;
  onCancel?: () => void;
  showHidden?: boolean;
}) {
  const editor = useAdminForm({ initial, schema: Schema, body: (form: Form) => form as Static<typeof Schema> });
  const { form, set, error } = editor;
  return (
    <>
      <a href="/admin/elsewhere">Elsewhere</a>
      <form {...editor.formProps((body, value) => send(body, value, editor))}>
        <Field label="Name" error={error("name")}>
          {(props) => <input {...props} value={form.name} onChange={(e) => set("name", e.target.value)} />}
        </Field>
        <Field label="Email" error={error("email")}>
          {(props) => <input {...props} value={form.email} onChange={(e) => set("email", e.target.value)} />}
        </Field>
        <Check label="I agree" value={form.agreed} onChange={(v) => set("agreed", v)} error={error("agreed")} />
        {showHidden && (
          <Field label="Hidden" error={error("hidden")}>
            {(props) => <input {...props} value={form.hidden} onChange={(e) => set("hidden", e.target.value)} />}
          </Field>
        )}
        {editor.elsewhere}
        <button type="button" onClick={() => editor.leave(onCancel)}>
          Cancel
        </button>
        <button type="submit">Save</button>
      </form>
    </>
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const save = () => fireEvent.click(screen.getByRole("button", { name: "Save" }));

test("an empty submit: each message at its field, focus on the first, each message follows its value", () => {
  const sent: unknown[] = [];
  render(<Editor showHidden send={(body) => sent.push(body)} />);
  expect(fieldMessage("Name")).toBeNull();
  save();
  expect(fieldMessage("Name")).toBe("Name is required");
  expect(fieldMessage("Email")).toBe("Email needs an @");
  expect(fieldMessage("I agree")).toBe("Tick to agree");
  expect(fieldMessage("Hidden")).toBe("Hidden is required");
  expect(document.activeElement).toBe(screen.getByLabelText("Name"));
  expect(document.querySelector("[data-form-problems]")).toBeNull();

  type("Name", "Ada");
  expect(fieldMessage("Name")).toBeNull();
  expect(fieldMessage("Email")).toBe("Email needs an @");
  type("Name", "");
  expect(fieldMessage("Name")).toBe("Name is required");

  type("Name", "Ada");
  type("Email", "ada@example.com");
  fireEvent.click(screen.getByLabelText("I agree"));
  type("Hidden", "x");
  save();
  expect(sent).toEqual([{ name: "Ada", email: "ada@example.com", agreed: true, hidden: "x" }]);
});

test("focus goes to the first invalid control in form order, a checkbox too", () => {
  render(<Editor showHidden />);
  type("Name", "Ada");
  type("Email", "ada@example.com");
  save();
  expect(fieldMessage("Name")).toBeNull();
  expect(document.activeElement).toBe(screen.getByLabelText("I agree"));
});

test("a problem of a field the form does not show is listed after the fields and focused, not lost", () => {
  render(<Editor />);
  type("Name", "Ada");
  type("Email", "ada@example.com");
  fireEvent.click(screen.getByLabelText("I agree"));
  save();
  const listed = document.querySelector<HTMLElement>("[data-form-problems]");
  expect(listed?.textContent).toBe("hidden: Hidden is required");
  expect(document.activeElement).toBe(listed);
});

test("the server's field messages show at their fields, focus the first, and go once the field changes", () => {
  render(
    <Editor
      initial={{ name: "Ada", email: "ada@example.com", agreed: true, hidden: "x" }}
      send={(body, _value, editor) =>
        act(() =>
          editor.refused(
            new ApiError(
              422,
              JSON.stringify({
                error: "Invalid",
                details: [
                  { field: "email", message: "Another account uses this email" },
                  { field: "name", message: "That name is taken" },
                ],
              }),
            ),
            body,
          ),
        )
      }
    />,
  );
  save();
  expect(fieldMessage("Name")).toBe("That name is taken");
  expect(fieldMessage("Email")).toBe("Another account uses this email");
  expect(document.activeElement).toBe(screen.getByLabelText("Name"));
  type("Email", "ada@example.org");
  expect(fieldMessage("Email")).toBeNull();
  expect(fieldMessage("Name")).toBe("That name is taken");
  type("Email", "not-an-address");
  expect(fieldMessage("Email")).toBe("Email needs an @");
});

test("Cancel asks only when the value differs from the loaded one, and stays when declined", () => {
  let left = 0;
  render(<Editor onCancel={() => left++} />);
  fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  expect(confirm).not.toHaveBeenCalled();
  expect(left).toBe(1);

  type("Name", "Ada");
  fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  expect(confirm).toHaveBeenCalledWith(LEAVE_QUESTION);
  expect(left).toBe(1);
  answer = true;
  fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  expect(left).toBe(2);

  confirm.mockClear();
  type("Name", "");
  fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
  expect(confirm).not.toHaveBeenCalled();
  expect(left).toBe(3);
});

const unload = () => {
  const event = new Event("beforeunload", { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

const follow = () => {
  const event = new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 });
  screen.getByRole("link", { name: "Elsewhere" }).dispatchEvent(event);
  return !event.defaultPrevented;
};

test("leaving the page or following a link of the site warns only with unsaved changes, and not after saving", () => {
  render(<Editor showHidden send={(_body, value, editor) => act(() => editor.accepted(value))} />);
  expect(unload()).toBe(false);
  expect(follow()).toBe(true);
  expect(confirm).not.toHaveBeenCalled();

  type("Name", "Ada");
  expect(unload()).toBe(true);
  expect(follow()).toBe(false);
  expect(confirm).toHaveBeenCalledWith(LEAVE_QUESTION);
  answer = true;
  expect(follow()).toBe(true);

  type("Email", "ada@example.com");
  fireEvent.click(screen.getByLabelText("I agree"));
  type("Hidden", "x");
  confirm.mockClear();
  save();
  expect(unload()).toBe(false);
  expect(follow()).toBe(true);
  expect(confirm).not.toHaveBeenCalled();
});
