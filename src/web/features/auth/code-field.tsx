import type { Ref } from "react";
import { Field } from "#web/admin/field.tsx";

export const SOMETHING_WRONG = "Something went wrong. Please try again.";

/** A code input: one field, six digits from the app or a recovery code. */
export function CodeField({
  label,
  value,
  onChange,
  error,
  inputRef,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
}) {
  return (
    <Field label={label} error={error}>
      {(props) => (
        <input
          {...props}
          ref={inputRef}
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
