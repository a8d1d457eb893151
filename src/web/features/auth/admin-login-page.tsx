import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useLocation, useSearch } from "wouter";
import { LOGIN_REQUIRED, type LoginField, loginFailureMessage } from "#shared/features/auth/constants.ts";
import { ADMIN_API } from "#web/admin/admin-api.ts";
import { ApiError, api, serverFieldErrors } from "#web/lib/query-client.ts";
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

/**
 * /admin-login: the admin signs in here. The form posts itself (method POST, never in the
 * address) when its script has not run yet; the server then answers with a redirect to
 * /admin, or back here with a failure code the page shows.
 */
export default function AdminLoginPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const search = new URLSearchParams(useSearch());
  const [form, setForm] = useState({ username: "", password: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(() =>
    loginFailureMessage(search.get("error"), search.get("wait")),
  );
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = missingFields(form);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    setFailure(null);
    try {
      const { user } = await api<{ user: unknown }>("POST", ADMIN_API.login, { json: form });
      setAdminFlag(user);
      await queryClient.invalidateQueries({ queryKey: [ADMIN_API.me] });
      toast({ title: "Success", description: "Logged in successfully" });
      navigate("/admin");
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
    <section className="login-page">
      <PageMeta title="Admin Login" description="Sign in to manage the site." noindex />
      <article>
        <h1>Admin Login</h1>
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
      </article>
    </section>
  );
}
