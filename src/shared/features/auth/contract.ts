import { type Static, Type } from "@sinclair/typebox";
import { LOGIN_REQUIRED } from "./constants.ts";

export const LoginInput = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64, error: LOGIN_REQUIRED.username }),
  password: Type.String({ minLength: 1, maxLength: 256, error: LOGIN_REQUIRED.password }),
});
export type LoginInput = Static<typeof LoginInput>;

export interface AdminUser {
  id: number;
  username: string;
}

/** A current code: six digits from the authenticator app, or one of the recovery codes. */
const Code = Type.String({ minLength: 1, maxLength: 64, error: "Enter a code from your authenticator app." });

export const CodeInput = Type.Object({ code: Code });
export type CodeInput = Static<typeof CodeInput>;

/** The password the admin signs in with, asked again before a change a session alone must not make. */
const CurrentPassword = Type.String({ minLength: 1, maxLength: 256, error: "Enter your current password." });

/**
 * Turning two-factor sign-in on: the current password with the first code of the new secret,
 * so a stolen session cannot enrol an authenticator of its own and lock the admin out.
 */
export const EnrolInput = Type.Object({ currentPassword: CurrentPassword, code: Code });
export type EnrolInput = Static<typeof EnrolInput>;

/** The same rule as ADMIN_PASSWORD: 12 characters or more. */
export const MIN_PASSWORD_LENGTH = 12;

export const ChangePasswordInput = Type.Object({
  currentPassword: CurrentPassword,
  newPassword: Type.String({
    minLength: MIN_PASSWORD_LENGTH,
    maxLength: 256,
    error: `The new password needs at least ${MIN_PASSWORD_LENGTH} characters (at most 256).`,
  }),
  // Asked only while two-factor sign-in is on.
  code: Type.Optional(Type.String({ maxLength: 64, error: "The code is at most 64 characters." })),
});
export type ChangePasswordInput = Static<typeof ChangePasswordInput>;

/** The recovery codes left (of RECOVERY_CODE_COUNT) and when one was last used (ISO time, or null). */
export interface RecoveryCodeState {
  left: number;
  lastUsedAt: string | null;
}

/**
 * A completed sign-in (POST /api/auth/login, or its code step). After a recovery code, how
 * many are left, so the admin can be told at once.
 */
export interface SignedIn {
  user: AdminUser;
  recoveryCodesLeft?: number;
}

/** The Account section's view of the admin. */
export interface AccountStatus {
  username: string;
  twoFactor: { enabled: boolean; enabledAt: string | null; recoveryCodesLeft: number };
}

/** A new secret to enrol: the otpauth:// address (for the QR code) and the secret to type. */
export interface Enrolment {
  secret: string;
  uri: string;
}
