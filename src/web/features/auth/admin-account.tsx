import { useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { RECOVERY_CODE_COUNT } from "#shared/features/auth/constants.ts";
import { type AccountStatus, ChangePasswordInput, MIN_PASSWORD_LENGTH } from "#shared/features/auth/contract.ts";
import { adminApi } from "#web/admin/admin-client.ts";
import { adminQuery, useAdminSend } from "#web/admin/admin-queries.ts";
import { TextField } from "#web/admin/field.tsx";
import { useAdminForm } from "#web/admin/use-admin-form.tsx";
import { serverFieldErrors, serverReason } from "#web/lib/query-client.ts";
import { toast, toastError } from "#web/stores/toast.ts";
import { CodeField, SOMETHING_WRONG } from "./code-field.tsx";
import { Enrol } from "./two-factor-enrol.tsx";

/** /admin/account: two-factor sign-in and the password. */
export function AccountTab() {
  const account = useQuery(adminQuery(adminApi.account));
  if (!account.data) return <p aria-busy="true">Loading your account...</p>;
  return (
    <>
      <TwoFactorSection status={account.data} />
      <ChangePasswordForm twoFactor={account.data.twoFactor.enabled} />
    </>
  );
}

const codeError = (failure: unknown) => serverFieldErrors(failure).code ?? serverReason(failure, SOMETHING_WRONG);

function TwoFactorSection({ status }: { status: AccountStatus }) {
  // Each change here refreshes the account's status by itself (useAdminSend).
  const [codes, setCodes] = useState<string[] | null>(null);
  const headingId = useId();

  return (
    <section className="admin-form" aria-labelledby={headingId}>
      <h2 id={headingId}>Two-factor sign-in</h2>
      {codes ? (
        <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />
      ) : status.twoFactor.enabled ? (
        <TwoFactorOn status={status} onCodes={setCodes} />
      ) : (
        <Enrol onCodes={setCodes} />
      )}
    </section>
  );
}

/** The recovery codes, shown once: copy, download, then confirm they are kept. */
function RecoveryCodesPanel({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `cam-guide recovery codes (each works once)\n\n${codes.join("\n")}\n`;
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      toast({ title: "Copied", description: "The recovery codes are on the clipboard" });
    } catch {
      toastError("Copying was refused: select the codes and copy them");
    }
  }
  return (
    <div className="recovery-codes">
      <p role="note">
        <strong>Save these recovery codes somewhere safe</strong> (a password manager, or printed and put away). Each
        one signs you in once if you lose your phone. They are shown only now.
      </p>
      <ul aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <button type="button" className="secondary" onClick={() => void copy()}>
          Copy
        </button>
        <a
          role="button"
          className="secondary"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="cam-guide-recovery-codes.txt"
        >
          Download
        </a>
        <button type="button" onClick={onDone}>
          I Have Saved Them
        </button>
      </div>
    </div>
  );
}

/** On: new recovery codes or turning it off, each asking for a current code. */
function TwoFactorOn({ status, onCodes }: { status: AccountStatus; onCodes: (codes: string[]) => void }) {
  const send = useAdminSend();
  const [code, setCode] = useState("");
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const { enabledAt, recoveryCodesLeft } = status.twoFactor;

  async function act(kind: "codes" | "off") {
    if (!code.trim()) {
      setError("Enter a current code from your app, or a recovery code.");
      return;
    }
    if (kind === "off" && !window.confirm("Turn off two-factor sign-in? Your password alone will then sign in."))
      return;
    setBusy(true);
    try {
      if (kind === "codes") {
        const { recoveryCodes } = await send(adminApi.account["two-factor"]["recovery-codes"].post({ code }));
        toast({
          title: "Success",
          description: "New recovery codes made. Every other session has been signed out.",
        });
        onCodes(recoveryCodes);
      } else {
        await send(adminApi.account["two-factor"].disable.post({ code }));
        toast({ title: "Success", description: "Two-factor sign-in is off. Every other session has been signed out." });
      }
      setCode("");
    } catch (failure) {
      setError(codeError(failure));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(event) => event.preventDefault()} noValidate>
      <p>
        <strong>On</strong>
        {enabledAt && ` since ${new Date(enabledAt).toLocaleDateString()}`}. Signing in asks for a code from your app.{" "}
        {recoveryCodesLeft > 0 && (
          <>
            {recoveryCodesLeft} of {RECOVERY_CODE_COUNT} recovery codes left
            {recoveryCodesLeft <= 3 && ": make new ones before they run out"}.
          </>
        )}
      </p>
      {recoveryCodesLeft === 0 && (
        <p className="form-error" role="alert">
          <strong>No recovery codes left.</strong> If you lose your phone, you cannot sign in until whoever runs the
          server turns two-factor sign-in off. Make new recovery codes now.
        </p>
      )}
      <CodeField
        recoveryAccepted
        label="Current code (from the app, or a recovery code)"
        value={code}
        onChange={(value) => {
          setCode(value);
          setError(undefined);
        }}
        error={error}
      />
      <div className="form-actions">
        <button type="button" className="secondary" disabled={busy} onClick={() => void act("codes")}>
          New Recovery Codes
        </button>
        <button type="button" className="secondary outline" disabled={busy} onClick={() => void act("off")}>
          Turn Off
        </button>
      </div>
    </form>
  );
}

const EMPTY_PASSWORD = { currentPassword: "", newPassword: "", code: "" };

/** A new password: the current one, 12+ characters, a code while two-factor sign-in is on. */
function ChangePasswordForm({ twoFactor }: { twoFactor: boolean }) {
  const editor = useAdminForm({
    initial: EMPTY_PASSWORD,
    schema: ChangePasswordInput,
    body: (form: typeof EMPTY_PASSWORD) => ({
      currentPassword: form.currentPassword,
      newPassword: form.newPassword,
      ...(twoFactor ? { code: form.code } : {}),
    }),
  });
  const { form, set, error } = editor;
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const send = useAdminSend();

  const save = async (body: ChangePasswordInput) => {
    setBusy(true);
    try {
      await send(adminApi.account.password.post(body));
      editor.accepted(EMPTY_PASSWORD, EMPTY_PASSWORD);
      toast({ title: "Success", description: "Password changed. Every other session has been signed out." });
    } catch (failure) {
      editor.refused(failure, body);
      toastError(serverReason(failure, SOMETHING_WRONG));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form {...editor.formProps((body) => void save(body))} className="admin-form" aria-labelledby={headingId}>
      <h2 id={headingId}>Password</h2>
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        {...editor.bind("currentPassword")}
      />
      <TextField
        label={`New password (${MIN_PASSWORD_LENGTH}+ characters)`}
        type="password"
        autoComplete="new-password"
        {...editor.bind("newPassword")}
      />
      {twoFactor && (
        <CodeField
          recoveryAccepted
          label="Code from your app (or a recovery code)"
          value={form.code}
          onChange={(value) => set("code", value)}
          error={error("code")}
        />
      )}
      {editor.elsewhere}
      <p>
        <small>Every other device signed in to the admin is signed out; this one stays signed in.</small>
      </p>
      <button type="submit" disabled={busy} aria-busy={busy}>
        Change Password
      </button>
    </form>
  );
}
