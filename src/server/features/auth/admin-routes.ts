import { Elysia } from "elysia";
import type { Server } from "elysia/universal";
import type { Db } from "#server/db/types.ts";
import type { ClientOf } from "#server/lib/client.ts";
import { adminJson } from "#server/plugins/admin-route.ts";
import { HttpError } from "#server/plugins/errors.ts";
import { looksLikeRecoveryCode, RECOVERY_CODE_AT_SET_UP, waitText } from "#shared/features/auth/constants.ts";
import { type AdminUser, ChangePasswordInput, CodeInput, EnrolInput } from "#shared/features/auth/contract.ts";
import { verifyLogin } from "./service.ts";
import { SESSION_DAYS, type SessionTokens, sessionAdmin, sessionCookie } from "./session.ts";
import { LoginThrottle, type SignInThrottle } from "./throttle.ts";
import {
  accountStatus,
  confirmEnrolment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  type SignInChanged,
  setPassword,
  spendSecondFactor,
  startEnrolment,
  twoFactorEnabled,
  WRONG_CODE,
  waitingSecret,
  wrongCodeMessage,
} from "./two-factor.ts";

export interface AccountOptions {
  tokens: SessionTokens;
  secure: (request: Request, server: Server | null) => boolean;
  client: ClientOf;
  /** Wrong codes and passwords given here are throttled like a sign-in. */
  throttle?: SignInThrottle;
}

const fieldError = (field: string, message: string) => new HttpError(422, message, [{ field, message }]);

const WRONG_PASSWORD = "That is not your current password.";

type SetHeaders = { headers: Record<string, string | number> };

/**
 * The admin's own account, mounted under /api/admin behind the admin guard (see app.ts):
 * two-factor sign-in (set-up, recovery codes, turning it off) and the password. Every change
 * to how the admin signs in ends every other session: a stolen session does not outlive it.
 * None can be made with the session alone: turning two-factor on and a new password ask for
 * the current password, the others for a current code.
 */
export function accountAdminRoutes(db: Db, { tokens, secure, client, throttle = new LoginThrottle() }: AccountOptions) {
  /** The admin of this request's session (the guard has already refused anyone else). */
  async function me(request: Request) {
    const admin = await sessionAdmin(db, tokens, request);
    if (!admin) throw new HttpError(401, "Sign in as the admin to continue.");
    return admin;
  }

  /**
   * Runs `check` as one throttled attempt: a wrong answer counts like a wrong password at
   * sign-in, so a stolen session cannot guess its way to turning the second step off.
   */
  async function throttled(request: Request, server: Server | null, check: () => Promise<boolean>) {
    const attempt = await throttle.begin(client(request, server).address);
    if (!attempt.allowed) {
      throw new HttpError(
        429,
        `Too many wrong codes or passwords. Try again in ${waitText(attempt.retryAfter)}.`,
        undefined,
        {
          "retry-after": String(attempt.retryAfter),
        },
      );
    }
    let ok = false;
    try {
      ok = await check();
    } finally {
      if (ok) await attempt.succeed();
      else attempt.fail();
    }
    return ok;
  }

  /** The session that made a change goes on with a fresh token of the new version; every other one has ended. */
  async function keepThisSession(
    request: Request,
    server: Server | null,
    set: SetHeaders,
    adminId: number,
    { tokenVersion }: SignInChanged,
  ) {
    set.headers["set-cookie"] = sessionCookie(await tokens.sign({ id: adminId, tokenVersion }), {
      maxAge: SESSION_DAYS * 24 * 60 * 60,
      secure: secure(request, server),
    });
  }

  /** While two-factor sign-in is on, a current code (from the app or a recovery code) is asked for. */
  async function requireCode(adminId: number, code: string | undefined, request: Request, server: Server | null) {
    if (!(await twoFactorEnabled(db, adminId))) return;
    if (!code?.trim()) throw fieldError("code", "Enter a current code from your authenticator app or a recovery code.");
    if (!(await throttled(request, server, async () => (await spendSecondFactor(db, adminId, code)) !== null)))
      throw fieldError("code", wrongCodeMessage(code));
  }

  /** The signed-in admin, for a change to two-factor sign-in that needs it on (409 `whenOff` if not) and a code. */
  async function adminWithTwoFactor(request: Request, server: Server | null, code: string, whenOff: string) {
    const admin = await me(request);
    if (!(await twoFactorEnabled(db, admin.id))) throw new HttpError(409, whenOff);
    await requireCode(admin.id, code, request, server);
    return admin;
  }

  /**
   * A change confirmed by a current code while two-factor sign-in is on (refused with `whenOff`
   * while it is off); this session goes on at the account's new token version.
   */
  async function changeWithCode<T extends SignInChanged>(
    {
      body,
      request,
      server,
      set,
    }: { body: { code: string }; request: Request; server: Server | null; set: SetHeaders },
    whenOff: string,
    change: (adminId: number) => Promise<T>,
  ): Promise<T> {
    const admin = await adminWithTwoFactor(request, server, body.code, whenOff);
    const changed = await change(admin.id);
    await keepThisSession(request, server, set, admin.id, changed);
    return changed;
  }

  /**
   * The current password, then `code` (a check of the code that answers whether it was right),
   * as one throttled attempt: a right password never clears the count of wrong codes, and a
   * wrong password leaves the code unchecked. Refuses at the field that was wrong.
   */
  async function requirePasswordAndCode(
    request: Request,
    server: Server | null,
    admin: AdminUser,
    currentPassword: string,
    code: () => Promise<boolean>,
  ) {
    let wrong = null as "currentPassword" | "code" | null;
    await throttled(request, server, async () => {
      if ((await verifyLogin(db, admin.username, currentPassword)) === null) wrong = "currentPassword";
      else if (!(await code())) wrong = "code";
      return wrong === null;
    });
    if (wrong === "currentPassword") throw fieldError("currentPassword", WRONG_PASSWORD);
    if (wrong === "code") throw fieldError("code", WRONG_CODE);
  }

  return new Elysia({ name: "account-admin" })
    .get("/account", async ({ request }) => accountStatus(db, (await me(request)).id))
    .post("/account/two-factor/start", async ({ request }) => startEnrolment(db, (await me(request)).id))
    .post(
      "/account/two-factor/confirm",
      async ({ body, request, server, set }) => {
        const admin = await me(request);
        // Nothing to confirm answers 409 at once, without spending an attempt; nor does a
        // recovery code typed where the app's first code goes (it can never confirm a set-up).
        await waitingSecret(db, admin.id);
        if (looksLikeRecoveryCode(body.code)) throw fieldError("code", RECOVERY_CODE_AT_SET_UP);
        // Assigned in the check below (declared with `as` so the compiler does not take it for null).
        let enrolled = null as Awaited<ReturnType<typeof confirmEnrolment>> | null;
        await requirePasswordAndCode(request, server, admin, body.currentPassword, async () => {
          try {
            enrolled = await confirmEnrolment(db, admin.id, body.code);
            return true;
          } catch (error) {
            // A wrong code changes nothing: the waiting secret stays for the next try.
            if (error instanceof HttpError && error.status === 422) return false;
            throw error;
          }
        });
        if (enrolled === null) throw fieldError("code", WRONG_CODE);
        const { recoveryCodes, tokenVersion } = enrolled;
        await keepThisSession(request, server, set, admin.id, { tokenVersion });
        return { recoveryCodes };
      },
      adminJson(EnrolInput),
    )
    .post(
      "/account/two-factor/recovery-codes",
      async (context) => {
        const { recoveryCodes } = await changeWithCode(context, "Two-factor sign-in is off.", (adminId) =>
          regenerateRecoveryCodes(db, adminId),
        );
        return { recoveryCodes };
      },
      adminJson(CodeInput),
    )
    .post(
      "/account/two-factor/disable",
      async (context) => {
        await changeWithCode(context, "Two-factor sign-in is already off.", (adminId) => disableTwoFactor(db, adminId));
        return { message: "Two-factor sign-in is off. Every other session has been signed out." };
      },
      adminJson(CodeInput),
    )
    .post(
      "/account/password",
      async ({ body, request, server, set }) => {
        const admin = await me(request);
        const needsCode = await twoFactorEnabled(db, admin.id);
        if (needsCode && !body.code?.trim())
          throw fieldError("code", "Enter a current code from your authenticator app or a recovery code.");
        await requirePasswordAndCode(request, server, admin, body.currentPassword, async () =>
          needsCode ? (await spendSecondFactor(db, admin.id, body.code ?? "")) !== null : true,
        );
        await keepThisSession(request, server, set, admin.id, await setPassword(db, admin.id, body.newPassword));
        return { message: "Password changed. Every other session has been signed out." };
      },
      adminJson(ChangePasswordInput),
    );
}
