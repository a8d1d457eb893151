import { type ReactNode, useId } from "react";

interface FieldControlProps {
  id: string;
  name: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
}

/** A labelled form control with its validation message announced and linked. */
export function Field({
  label,
  error,
  children,
}: {
  label: string;
  error?: string;
  children: (props: FieldControlProps) => ReactNode;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        name: label,
        ...(error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {}),
      })}
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}

/**
 * A labelled text input (a textarea when it has `rows`): an absent value shows as empty and
 * every change sets the text.
 */
export function TextField({
  label,
  value,
  onChange,
  error,
  rows,
  ...input
}: {
  label: string;
  value: string | null | undefined;
  onChange: (value: string) => void;
  error?: string;
  rows?: number;
  type?: "url" | "password";
  /** The keyboard a phone shows, for a field that takes more than its `type` allows ("url" without a scheme). */
  inputMode?: "url";
  autoComplete?: string;
  placeholder?: string;
}) {
  return (
    <Field label={label} error={error}>
      {(props) =>
        rows ? (
          <textarea {...props} rows={rows} value={value ?? ""} onChange={(e) => onChange(e.target.value)} />
        ) : (
          <input {...props} {...input} value={value ?? ""} onChange={(e) => onChange(e.target.value)} />
        )
      }
    </Field>
  );
}

/**
 * A labelled whole-number input with the phone's numeric keyboard: an absent value shows as
 * empty and every change passes the typed text on, for the form to read as it needs.
 */
export function NumberField({
  label,
  value,
  onChange,
  error,
  min,
  max,
}: {
  label: string;
  value: string | number | null | undefined;
  onChange: (text: string) => void;
  error?: string;
  min: number;
  max: number;
}) {
  return (
    <Field label={label} error={error}>
      {(props) => (
        <input
          {...props}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
          value={value ?? ""}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** A labelled checkbox with its validation message announced and linked. */
export function Check({
  label,
  value: checked,
  onChange,
  error,
}: {
  label: string;
  value: boolean;
  onChange: (checked: boolean) => void;
  error?: string;
}) {
  const id = useId();
  return (
    <div className="field">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          {...(error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {})}
        />
        {label}
      </label>
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </div>
  );
}
