import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { CHALLENGE_ENDED } from "#shared/features/auth/constants.ts";
import type { SignedIn } from "#shared/features/auth/contract.ts";
import { askToSignIn, postponeSignIn, sessionResumed, useSessionStore } from "#web/stores/session.ts";
import { toast } from "#web/stores/toast.ts";
import { closedNow } from "#web/ui/modal-dialog.ts";
import { adminUsername, setAdminFlag } from "./admin-session.ts";
import { CodeForm, PasswordForm, signedInText } from "./sign-in-forms.tsx";

export const SIGNED_OUT_TITLE = "You have been signed out";
export const SIGNED_OUT_TEXT =
  "Your session ended, for example after a sign-in change on another device. Sign in again to save: what you typed here is kept.";

/** An element of the page itself (not the body), outside each of `apart`. */
function ofThePage(element: EventTarget | null, apart: (HTMLElement | null)[]): element is HTMLElement {
  return element instanceof HTMLElement && element !== document.body && !apart.some((a) => a?.contains(element));
}

type Step = { kind: "password"; failure: string | null } | { kind: "code"; recovery: boolean };

/**
 * The dashboard's answer to a session that ended while it was open: a modal sign-in over the
 * page, so every form keeps what was typed, and the save the admin tried works once they
 * have signed in again. Closed without signing in, a line at the top keeps saying so.
 */
export function SignInAgain() {
  const { ended, asking } = useSessionStore();
  const dialog = useRef<HTMLDialogElement>(null);
  // What had the focus last outside the dialog (the save button, which a form disables while
  // saving, so it may have lost the focus by the time the refusal comes), given back once the
  // dialog closes.
  const before = useRef<HTMLElement | null>(null);
  const bar = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const note = (event: FocusEvent) => {
      // Not the dialog, nor the line that reopens it (gone once signed in).
      if (ofThePage(event.target, [dialog.current, bar.current])) before.current = event.target;
    };
    document.addEventListener("focusin", note);
    return () => document.removeEventListener("focusin", note);
  }, []);
  const [step, setStep] = useState<Step>({ kind: "password", failure: null });
  const [username] = useState(adminUsername);
  const queryClient = useQueryClient();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (asking && !element.open) {
      if (ofThePage(document.activeElement, [element, bar.current])) before.current = document.activeElement;
      element.showModal?.();
      element.querySelector<HTMLInputElement>(username ? 'input[name="password"]' : 'input[name="username"]')?.focus();
    }
    if (!asking) {
      // The next opening starts again at the password.
      setStep({ kind: "password", failure: null });
      // Closed by the browser already (Escape), by a button or by signing in: the focus goes
      // back to what had it (after a button, whatever the browser did with it on closing).
      const closing = element.open;
      if (closing) element.close();
      if (before.current?.isConnected && (closing || !ofThePage(document.activeElement, []))) before.current.focus();
    }
  }, [asking, username]);

  async function signedIn({ user, recoveryCodesLeft }: SignedIn) {
    setAdminFlag(user);
    sessionResumed();
    const kept = "What you typed is still here: save it now.";
    toast({
      title: "Signed in again",
      description: recoveryCodesLeft === undefined ? kept : `${signedInText(recoveryCodesLeft)} ${kept}`,
    });
    // Everything shown while signed out is asked for again.
    await queryClient.invalidateQueries();
  }

  return (
    <>
      {ended && !asking && (
        <div className="signed-out-bar" role="alert" ref={bar}>
          <p>You are signed out: nothing can be saved until you sign in again. What you typed is kept.</p>
          <button type="button" onClick={askToSignIn}>
            Sign In Again
          </button>
        </div>
      )}
      <dialog
        ref={dialog}
        className="sign-in-again"
        aria-labelledby="sign-in-again-title"
        aria-describedby="sign-in-again-text"
        onClose={(event) => {
          if (useSessionStore.getState().asking && closedNow(event)) postponeSignIn();
        }}
      >
        <article>
          <h2 id="sign-in-again-title">{SIGNED_OUT_TITLE}</h2>
          <p id="sign-in-again-text">{SIGNED_OUT_TEXT}</p>
          {asking &&
            (step.kind === "password" ? (
              <PasswordForm
                initialFailure={step.failure}
                username={username}
                onCodeRequired={() => setStep({ kind: "code", recovery: false })}
                onSignedIn={signedIn}
              />
            ) : (
              <CodeForm
                key={String(step.recovery)}
                recovery={step.recovery}
                initialFailure={null}
                onSignedIn={signedIn}
                onEnded={() => setStep({ kind: "password", failure: CHALLENGE_ENDED })}
              >
                <p className="login-switch">
                  <button
                    type="button"
                    className="secondary outline"
                    onClick={() => setStep({ kind: "code", recovery: !step.recovery })}
                  >
                    {step.recovery ? "Use a code from the app" : "Use a recovery code"}
                  </button>
                </p>
              </CodeForm>
            ))}
          <footer className="dialog-actions">
            <button type="button" className="secondary outline" onClick={postponeSignIn}>
              Not Now
            </button>
          </footer>
        </article>
      </dialog>
    </>
  );
}
