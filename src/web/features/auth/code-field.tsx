import type { Ref } from "react";
import { Field } from "#web/admin/field.tsx";

export const SOMETHING_WRONG = "Something went wrong. Please try again.";

/**
 * A code input: six digits from the app, or (`recoveryAccepted`) a recovery code too, whose
 * letters a phone's number pad cannot type.
 */
export function CodeField({
  label,
  value,
  onChange,
  error,
  inputRef,
  recoveryAccepted = false,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
  recoveryAccepted?: boolean;
}) {
  return (
    <Field label={label} error={error}>
      {(props) => (
        <input
          {...props}
          ref={inputRef}
          name="code"
          autoComplete="one-time-code"
          inputMode={recoveryAccepted ? "text" : "numeric"}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}
