import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link, useLocation, useSearch } from "wouter";
import {
  CHALLENGE_ENDED,
  LOGIN_FAILURE,
  LOGIN_REQUIRED,
  type LoginField,
  loginFailureMessage,
  RECOVERY_CODE_COUNT,
} from "#shared/features/auth/constants.ts";
import type { SignedIn } from "#shared/features/auth/contract.ts";
import { ADMIN_API } from "#web/admin/admin-api.ts";
import { ApiError, api, serverFieldErrors, serverReason } from "#web/lib/query-client.ts";
import { toast } from "#web/stores/toast.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { setAdminFlag } from "./admin-session.ts";

// Two required fields need no schema library in this page's bundle: the same messages as
// LoginInput, which the server still checks the whole body against.
function missingFields(form: Record<LoginField, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of ["username", "password"] as const) if (!form[field]) errors[field] = LOGIN_REQUIRED[field];
  return errors;
}

/** The address of the code step; `recovery` asks for a recovery code instead of the app's. */
const codeStepPath = (recovery: boolean) => `/admin-login?step=code${recovery ? "&use=recovery" : ""}`;

/**
 * /admin-login: the admin signs in here. The form posts itself (method POST, never in the
 * address) when its script has not run yet; the server then answers with a redirect to
 * /admin, or back here with a failure code the page shows. With two-factor sign-in on, the
 * password leads to the code step (?step=code), which works the same way.
 */
export default function AdminLoginPage() {
  const search = new URLSearchParams(useSearch());
  const failure = loginFailureMessage(search.get("error"), search.get("wait"));
  const recovery = search.get("use") === "recovery";
  return (
    <section className="login-page">
      <PageMeta title="Admin Login" description="Sign in to manage the site." noindex />
      <article>
        <h1>Admin Login</h1>
        {search.get("step") === "code" ? (
          // A new form for each kind of code and each failure the address names.
          <CodeStep key={search.toString()} recovery={recovery} initialFailure={failure} />
        ) : (
          <PasswordStep key={search.toString()} initialFailure={failure} />
        )}
      </article>
    </section>
  );
}

/** What the toast says after a sign-in: after a recovery code, how many are left. */
function signedInText(recoveryCodesLeft: number | undefined): string {
  if (recoveryCodesLeft === undefined) return "Logged in successfully";
  if (recoveryCodesLeft === 0) return "Logged in with your last recovery code. Make new ones in Account now.";
  return `Logged in with a recovery code: ${recoveryCodesLeft} of ${RECOVERY_CODE_COUNT} left.`;
}

/** Signed in: the local flag, a fresh session check, then the dashboard (whose home says what needs doing). */
function useSignedIn() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  return async ({ user, recoveryCodesLeft }: SignedIn) => {
    setAdminFlag(user);
    await queryClient.invalidateQueries({ queryKey: [ADMIN_API.me] });
    toast({ title: "Success", description: signedInText(recoveryCodesLeft) });
    navigate("/admin");
  };
}

function PasswordStep({ initialFailure }: { initialFailure: string | null }) {
  const [, navigate] = useLocation();
  const signedIn = useSignedIn();
  const [form, setForm] = useState({ username: "", password: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(initialFailure);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = missingFields(form);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    setFailure(null);
    try {
      const answer = await api<SignedIn | { codeRequired: true }>("POST", ADMIN_API.login, { json: form });
      // Two-factor sign-in: the password was right, and a code is asked for next.
      if ("codeRequired" in answer) navigate(codeStepPath(false));
      else await signedIn(answer);
    } catch (error) {
      // 429 carries its own message (how long to wait); anything else is a wrong password.
      const message =
        error instanceof ApiError && error.status === 429 && error.error ? error.error : "Invalid username or password";
      setErrors(serverFieldErrors(error));
      setFailure(message);
      toast({ title: "Login failed", description: message, variant: "destructive" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form method="post" action={ADMIN_API.login} onSubmit={submit} noValidate>
      <label>
        Username
        <input
          name="username"
          autoComplete="username"
          required
          value={form.username}
          aria-invalid={errors.username ? true : undefined}
          aria-describedby={errors.username ? "username-error" : undefined}
          onChange={(e) => setForm({ ...form, username: e.target.value })}
        />
        {errors.username && <small id="username-error">{errors.username}</small>}
      </label>
      <label>
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={form.password}
          aria-invalid={errors.password ? true : undefined}
          aria-describedby={errors.password ? "password-error" : undefined}
          onChange={(e) => setForm({ ...form, password: e.target.value })}
        />
        {errors.password && <small id="password-error">{errors.password}</small>}
      </label>
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

/**
 * The second step: one code, from the authenticator app (six digits) or, after the switch,
 * a recovery code. Posts itself without JavaScript like the password step.
 */
function CodeStep({ recovery, initialFailure }: { recovery: boolean; initialFailure: string | null }) {
  const [, navigate] = useLocation();
  const signedIn = useSignedIn();
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
      await signedIn(await api<SignedIn>("POST", ADMIN_API.loginCode, { json: { code } }));
    } catch (failed) {
      const message = serverReason(failed, "That code is not right. Try again.");
      // The sign-in itself ended (or never started here): back to the password.
      if (failed instanceof ApiError && failed.status === 401 && message === CHALLENGE_ENDED) {
        navigate(`/admin-login?error=${LOGIN_FAILURE.expired}`);
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
    <form method="post" action={ADMIN_API.loginCode} onSubmit={submit} noValidate>
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
          {...(recovery ? { autoCapitalize: "none", spellCheck: false } : { pattern: "[0-9 ]*", maxLength: 8 })}
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
      <p className="login-switch">
        <Link href={codeStepPath(!recovery)}>{recovery ? "Use a code from the app" : "Use a recovery code"}</Link>
        {" · "}
        <Link href="/admin-login">Start over</Link>
      </p>
    </form>
  );
}
