import { useQueryClient } from "@tanstack/react-query";
import { Link, useLocation, useSearch } from "wouter";
import { LOGIN_FAILURE, loginFailureMessage, SESSION_ENDED_NOTICE } from "#shared/features/auth/constants.ts";
import type { SignedIn } from "#shared/features/auth/contract.ts";
import { AdminHeader } from "#web/layout/admin-header.tsx";
import { sessionResumed } from "#web/stores/session.ts";
import { toast } from "#web/stores/toast.ts";
import { PageMeta } from "#web/ui/page-meta.tsx";
import { setAdminFlag } from "./admin-session.ts";
import { sessionCheck } from "./session-check.ts";
import { CodeForm, PasswordForm, signedInText } from "./sign-in-forms.tsx";

/** The address of the code step; `recovery` asks for a recovery code instead of the app's. */
const codeStepPath = (recovery: boolean) => `/admin-login?step=code${recovery ? "&use=recovery" : ""}`;

/**
 * /admin-login: the admin signs in here. The form posts itself (method POST, never in the
 * address) when its script has not run yet; the server then answers with a redirect to
 * /admin, or back here with a failure code the page shows. With two-factor sign-in on, the
 * password leads to the code step (?step=code), which works the same way. Sent here because
 * the session ended (?session=ended, from the dashboard), it says so.
 */
export default function AdminLoginPage() {
  const search = new URLSearchParams(useSearch());
  const failure = loginFailureMessage(search.get("error"), search.get("wait"));
  const recovery = search.get("use") === "recovery";
  return (
    <>
      <AdminHeader />
      <main id="main" className="container" tabIndex={-1}>
        <section className="login-page">
          <PageMeta title="Admin Login" description="Sign in to manage the site." noindex />
          <article>
            <h1>Admin Login</h1>
            {search.get("session") === "ended" && !failure && (
              <p className="login-notice" role="status">
                {SESSION_ENDED_NOTICE}
              </p>
            )}
            {search.get("step") === "code" ? (
              // A new form for each kind of code and each failure the address names.
              <CodeStep key={search.toString()} recovery={recovery} initialFailure={failure} />
            ) : (
              <PasswordStep key={search.toString()} initialFailure={failure} />
            )}
          </article>
        </section>
      </main>
    </>
  );
}

/** Signed in: the local flag, a fresh session check, then the dashboard (whose home says what needs doing). */
function useSignedIn() {
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  return async ({ user, recoveryCodesLeft }: SignedIn) => {
    setAdminFlag(user);
    sessionResumed();
    await queryClient.invalidateQueries({ queryKey: sessionCheck.queryKey });
    toast({ title: "Success", description: signedInText(recoveryCodesLeft) });
    navigate("/admin");
  };
}

function PasswordStep({ initialFailure }: { initialFailure: string | null }) {
  const [, navigate] = useLocation();
  const signedIn = useSignedIn();
  return (
    <PasswordForm
      initialFailure={initialFailure}
      onCodeRequired={() => navigate(codeStepPath(false))}
      onSignedIn={signedIn}
    />
  );
}

/** The second step; posts itself without JavaScript like the password step. */
function CodeStep({ recovery, initialFailure }: { recovery: boolean; initialFailure: string | null }) {
  const [, navigate] = useLocation();
  const signedIn = useSignedIn();
  return (
    <CodeForm
      recovery={recovery}
      initialFailure={initialFailure}
      onSignedIn={signedIn}
      // The sign-in itself ended (or never started here): back to the password.
      onEnded={() => navigate(`/admin-login?error=${LOGIN_FAILURE.expired}`)}
    >
      <p className="login-switch">
        <Link href={codeStepPath(!recovery)}>{recovery ? "Use a code from the app" : "Use a recovery code"}</Link>
        {" · "}
        <Link href="/admin-login">Start over</Link>
      </p>
    </CodeForm>
  );
}
