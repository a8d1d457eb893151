import { type FormEvent, useRef, useState } from "react";
import { encode } from "uqr";
import { looksLikeRecoveryCode, RECOVERY_CODE_AT_SET_UP } from "#shared/features/auth/constants.ts";
import type { Enrolment } from "#shared/features/auth/contract.ts";
import { adminApi } from "#web/admin/admin-client.ts";
import { useAdminSend } from "#web/admin/admin-queries.ts";
import { Field } from "#web/admin/field.tsx";
import { serverFieldErrors, serverReason } from "#web/lib/query-client.ts";
import { toast, toastError } from "#web/stores/toast.ts";
import { CodeField, SOMETHING_WRONG } from "./code-field.tsx";

/** The QR code of the otpauth:// address, drawn here: nothing leaves the page. */
function QrCode({ text }: { text: string }) {
  const { data, size } = encode(text, { ecc: "M", border: 2 });
  let path = "";
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      className="qr-code"
      viewBox={`0 0 ${size} ${size}`}
      width={size * 5}
      height={size * 5}
      role="img"
      aria-label="QR code to scan with your authenticator app"
      shapeRendering="crispEdges"
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}

/** A secret or code in groups of four, easier to read out and type. */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;

/** The confirm form's fields, in the order they are shown (the first with a problem gets the focus). */
const FIELDS = ["code", "currentPassword"] as const;
type EnrolField = (typeof FIELDS)[number];
type Problems = Partial<Record<EnrolField, string>>;

/** What the form checks before sending: the server says the same, or whether the values are right. */
function problemsOf(code: string, currentPassword: string): Problems {
  const problems: Problems = {};
  if (looksLikeRecoveryCode(code)) problems.code = RECOVERY_CODE_AT_SET_UP;
  else if (!/^\s*\d{3}\s?\d{3}\s*$/.test(code)) problems.code = "Enter the 6-digit code your app shows.";
  if (!currentPassword) problems.currentPassword = "Enter your current password.";
  return problems;
}

/**
 * Off: start the set-up, scan or type the secret, confirm with a first code and the current
 * password (a session alone must not turn it on: someone who took it would lock the admin out).
 */
export function Enrol({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const send = useAdminSend();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [code, setCode] = useState("");
  const [currentPassword, setCurrentPassword] = useState("");
  const [problems, setProblems] = useState<Problems>({});
  // A refusal that belongs to no field (too many tries, the set-up started again elsewhere).
  const [refusal, setRefusal] = useState<string>();
  const [busy, setBusy] = useState(false);
  const inputs = { code: useRef<HTMLInputElement>(null), currentPassword: useRef<HTMLInputElement>(null) };

  function show(next: Problems) {
    setProblems(next);
    const first = FIELDS.find((field) => next[field]);
    if (first) inputs[first].current?.focus();
  }

  function edit(field: EnrolField, value: string) {
    (field === "code" ? setCode : setCurrentPassword)(value);
    setProblems((current) => ({ ...current, [field]: undefined }));
    setRefusal(undefined);
  }

  async function start() {
    setBusy(true);
    try {
      setEnrolment(await send(adminApi.account["two-factor"].start.post({})));
    } catch (failure) {
      toastError(serverReason(failure, SOMETHING_WRONG));
    } finally {
      setBusy(false);
    }
  }

  function cancel() {
    setEnrolment(null);
    setCode("");
    setCurrentPassword("");
    setProblems({});
    setRefusal(undefined);
  }

  async function confirm(event: FormEvent) {
    event.preventDefault();
    setRefusal(undefined);
    const before = problemsOf(code, currentPassword);
    if (Object.keys(before).length) {
      show(before);
      return;
    }
    setBusy(true);
    try {
      // Answers once the account shows two-factor sign-in on.
      const { recoveryCodes } = await send(adminApi.account["two-factor"].confirm.post({ currentPassword, code }));
      toast({ title: "Success", description: "Two-factor sign-in is on. Every other session has been signed out." });
      onCodes(recoveryCodes);
    } catch (failure) {
      const { code: codeProblem, currentPassword: passwordProblem } = serverFieldErrors(failure);
      if (codeProblem || passwordProblem) show({ code: codeProblem, currentPassword: passwordProblem });
      else setRefusal(serverReason(failure, SOMETHING_WRONG));
    } finally {
      setBusy(false);
    }
  }

  if (!enrolment)
    return (
      <>
        <p>
          Off. With two-factor sign-in on, signing in asks for your password and then a 6-digit code from an
          authenticator app on your phone (such as Google Authenticator, Microsoft Authenticator, 1Password or Aegis),
          so a stolen password alone cannot open the admin.
        </p>
        <button type="button" onClick={() => void start()} disabled={busy} aria-busy={busy}>
          Set Up Two-Factor Sign-In
        </button>
      </>
    );

  return (
    <form onSubmit={confirm} noValidate>
      <ol>
        <li>In your authenticator app, add an account and scan this QR code:</li>
      </ol>
      <QrCode text={enrolment.uri} />
      <p>
        Cannot scan it? Type this key instead (time-based):{" "}
        <code className="totp-secret" data-secret={enrolment.secret}>
          {grouped(enrolment.secret)}
        </code>
      </p>
      <ol start={2}>
        <li>Enter the 6-digit code the app now shows for cam-guide:</li>
      </ol>
      <CodeField
        label="Code from the app"
        value={code}
        onChange={(value) => edit("code", value)}
        error={problems.code}
        inputRef={inputs.code}
      />
      <ol start={3}>
        <li>Confirm with the password you sign in with:</li>
      </ol>
      <Field label="Current password" error={problems.currentPassword}>
        {(props) => (
          <input
            {...props}
            ref={inputs.currentPassword}
            name="currentPassword"
            type="password"
            autoComplete="current-password"
            value={currentPassword}
            onChange={(e) => edit("currentPassword", e.target.value)}
          />
        )}
      </Field>
      {refusal && (
        <p className="form-error" role="alert">
          {refusal}
        </p>
      )}
      <div className="form-actions">
        <button type="button" className="secondary outline" onClick={cancel}>
          Cancel
        </button>
        <button type="submit" disabled={busy} aria-busy={busy}>
          Turn On
        </button>
      </div>
    </form>
  );
}
