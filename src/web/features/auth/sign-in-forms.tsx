import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import {
  CHALLENGE_ENDED,
  LOGIN_REQUIRED,
  type LoginField,
  RECOVERY_CODE_COUNT,
} from "#shared/features/auth/constants.ts";
import type { SignedIn } from "#shared/features/auth/contract.ts";
import { answer, authApi } from "#web/admin/admin-client.ts";
import { ApiError, serverFieldErrors, serverReason } from "#web/lib/query-client.ts";
import { toastError } from "#web/stores/toast.ts";

// The two steps of signing in, used by the sign-in page and by the dashboard's "sign in
// again" dialog. Each is a form that also posts itself without JavaScript (the page's case).

/** How long a code the server takes may be: an app's six digits or a recovery code, spaces and dashes allowed. */
const CODE_MAX_LENGTH = 64;

// Two required fields need no schema library in this page's bundle: the same messages as
// LoginInput, which the server still checks the whole body against.
function missingFields(form: Record<LoginField, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of ["username", "password"] as const) if (!form[field]) errors[field] = LOGIN_REQUIRED[field];
  return errors;
}

/**
 * A sign-in step's answer to this script. The same route answers the page's form posted
 * without JavaScript with a redirect and an empty body, which a script's JSON call never gets.
 */
function scripted<T extends object>(answer: T | string): T {
  if (typeof answer === "string") throw new Error("The sign-in answered as it answers a form without JavaScript.");
  return answer;
}

/** What the toast says after a sign-in: after a recovery code, how many are left. */
export function signedInText(recoveryCodesLeft: number | undefined): string {
  if (recoveryCodesLeft === undefined) return "Logged in successfully";
  if (recoveryCodesLeft === 0) return "Logged in with your last recovery code. Make new ones in Account now.";
  return `Logged in with a recovery code: ${recoveryCodesLeft} of ${RECOVERY_CODE_COUNT} left.`;
}

interface PasswordFormProps {
  initialFailure: string | null;
  /** The username this browser last signed in with, filled in. */
  username?: string;
  /** The password was right and two-factor sign-in asks for a code next. */
  onCodeRequired: () => void;
  onSignedIn: (answer: SignedIn) => Promise<void> | void;
}

export function PasswordForm({ initialFailure, username = "", onCodeRequired, onSignedIn }: PasswordFormProps) {
  const [form, setForm] = useState({ username, password: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(initialFailure);
  const [busy, setBusy] = useState(false);
  // What was typed before the page's script ran is in the fields, not in the state: taken over
  // once, or the first render after would empty the fields it shows.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const fields = formRef.current?.elements;
    const typed = (name: string) => (fields?.namedItem(name) as HTMLInputElement | null)?.value ?? "";
    setForm((f) => ({ username: typed("username") || f.username, password: typed("password") || f.password }));
  }, []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = missingFields(form);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    setFailure(null);
    try {
      const signedIn = scripted(await answer(authApi.login.post(form)));
      // Two-factor sign-in: the password was right, and a code is asked for next.
      if ("codeRequired" in signedIn) onCodeRequired();
      else await onSignedIn(signedIn);
    } catch (error) {
      // 429 carries its own message (how long to wait); anything else is a wrong password.
      const message =
        error instanceof ApiError && error.status === 429 && error.error ? error.error : "Invalid username or password";
      setErrors(serverFieldErrors(error));
      setFailure(message);
      toastError(message, "Login failed");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form ref={formRef} method="post" action={authApi.login["~path"]} onSubmit={submit} noValidate>
      <CredentialField
        name="username"
        label="Username"
        autoComplete="username"
        value={form.username}
        error={errors.username}
        onChange={(username) => setForm({ ...form, username })}
      />
      <CredentialField
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        value={form.password}
        error={errors.password}
        onChange={(password) => setForm({ ...form, password })}
      />
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? "Signing in..." : "Sign In"}
      </button>
    </form>
  );
}

/** A required field of the password step, with its message below it when refused. */
function CredentialField({
  name,
  label,
  type,
  autoComplete,
  value,
  error,
  onChange,
}: {
  name: LoginField;
  label: string;
  type?: "password";
  autoComplete: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}
      <input
        name={name}
        type={type}
        autoComplete={autoComplete}
        required
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${name}-error` : undefined}
        onChange={(e) => onChange(e.target.value)}
      />
      {error && <small id={`${name}-error`}>{error}</small>}
    </label>
  );
}

interface CodeFormProps {
  /** Asks for a recovery code instead of the app's (either is taken in either field). */
  recovery: boolean;
  initialFailure: string | null;
  onSignedIn: (answer: SignedIn) => Promise<void> | void;
  /** The sign-in itself ended (too late, replaced, used): the password is asked again. */
  onEnded: () => void;
  /** The ways to the other kind of code and back to the password. */
  children: ReactNode;
}

/**
 * The second step: one code, from the authenticator app (six digits) or a recovery code.
 * The field takes either, whichever it is labelled for, so a recovery code pasted where the
 * app's code goes is not cut short; the server tells them apart.
 */
export function CodeForm({ recovery, initialFailure, onSignedIn, onEnded, children }: CodeFormProps) {
  const [code, setCode] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(initialFailure);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // Arriving from the password step (in the browser), the code is what to type next.
  useEffect(() => input.current?.focus(), []);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) {
      setError(recovery ? "Enter one of your recovery codes." : "Enter the 6-digit code from your app.");
      input.current?.focus();
      return;
    }
    setError(null);
    setBusy(true);
    setFailure(null);
    try {
      await onSignedIn(scripted(await answer(authApi.login.code.post({ code }))));
    } catch (failed) {
      const message = serverReason(failed, "That code is not right. Try again.");
      if (failed instanceof ApiError && failed.status === 401 && message === CHALLENGE_ENDED) {
        onEnded();
        return;
      }
      setFailure(message);
      setCode("");
      input.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  const label = recovery ? "Recovery code" : "Code from your authenticator app";
  return (
    <form method="post" action={authApi.login.code["~path"]} onSubmit={submit} noValidate>
      {recovery && <input type="hidden" name="use" value="recovery" />}
      <p>
        {recovery
          ? "Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each one works once."
          : "Two-factor sign-in is on. Open your authenticator app and enter the 6-digit code it shows for this site."}
      </p>
      <label>
        {label}
        <input
          ref={input}
          name="code"
          autoComplete={recovery ? "off" : "one-time-code"}
          inputMode={recovery ? "text" : "numeric"}
          autoCapitalize="none"
          spellCheck={false}
          maxLength={CODE_MAX_LENGTH}
          required
          value={code}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "code-error" : undefined}
          onChange={(e) => setCode(e.target.value)}
        />
        {error && <small id="code-error">{error}</small>}
      </label>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      <button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? "Checking..." : "Verify"}
      </button>
      {children}
    </form>
  );
}
