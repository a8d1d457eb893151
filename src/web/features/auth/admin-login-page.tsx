import { useState, type FormEvent } from "react";
import { useLocation } from "wouter";
import { useQueryClient } from "@tanstack/react-query";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { ADMIN_API } from "#web/admin/admin-api.ts";
import { toast } from "#web/stores/toast.ts";
import { setAdminFlag } from "./admin-session.ts";
import { fieldErrors } from "#web/lib/validate.ts";
import { LoginInput } from "#shared/features/auth/contract.ts";

/** /admin-login (SPEC 2). */
export default function AdminLoginPage() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({ username: "", password: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = fieldErrors(LoginInput, form);
    setErrors(problems);
    if (Object.keys(problems).length) return;
    setBusy(true);
    setFailure(null);
    try {
      const response = await fetch(ADMIN_API.login, {
        method: "POST",
        credentials: "include",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(form),
      });
      const body = (await response.json().catch(() => ({}))) as { user?: unknown; error?: string };
      if (!response.ok) {
        // 429 carries its own message (how long to wait); anything else is a wrong password.
        const message = response.status === 429 && body.error ? body.error : "Invalid username or password";
        setFailure(message);
        toast({ title: "Login failed", description: message, variant: "destructive" });
        return;
      }
      setAdminFlag(body.user);
      await queryClient.invalidateQueries({ queryKey: [ADMIN_API.me] });
      toast({ title: "Success", description: "Logged in successfully" });
      navigate("/admin");
    } catch {
      setFailure("Invalid username or password");
      toast({ title: "Login failed", description: "Invalid username or password", variant: "destructive" });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="login-page">
      <PageMeta title="Admin Login" description="Sign in to manage the site." noindex />
      <article>
        <h1>Admin Login</h1>
        <form onSubmit={submit} noValidate>
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
