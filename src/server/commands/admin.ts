// `cam-guide admin reset-password` and `cam-guide admin reset-2fa`: the ways back in.
import type { Config } from "#server/env.ts";
import { AdminResetError, resetAdminPassword } from "#server/features/auth/bootstrap.ts";
import { resetTwoFactor } from "#server/features/auth/two-factor.ts";
import { fail, onExistingSite } from "./common.ts";

export function resetPassword(config: Config) {
  return onExistingSite(config, async (database) => {
    const result = await resetAdminPassword(database.db, config.adminUsername, config.adminPassword);
    const lines = [
      result.generatedPassword
        ? `New password for the admin "${result.username}": ${result.generatedPassword}`
        : `Password for the admin "${result.username}" set from ADMIN_PASSWORD.`,
      "Every existing session has been signed out.",
    ];
    if (result.username !== config.adminUsername)
      lines.push(
        `Sign in as "${result.username}": ADMIN_USERNAME ("${config.adminUsername}") only names the admin when the account is first created.`,
      );
    if (result.removed.length > 0)
      lines.push(
        `Removed ${result.removed.length} extra admin account(s) an older cam-guide had created: ${result.removed.map((name) => `"${name}"`).join(", ")}.`,
      );
    console.log(lines.join("\n"));
  }).catch((error) => {
    if (error instanceof AdminResetError) fail(`${error.message} Nothing was changed.`);
    throw error;
  });
}

/** `cam-guide admin reset-2fa`: the second step off, the recovery codes gone, every session ended. */
export function resetSecondFactor(config: Config) {
  return onExistingSite(config, async (database) => {
    const admins = await resetTwoFactor(database.db);
    if (admins.length === 0)
      fail("There is no admin account yet: start the server once and it creates one. Nothing was changed.");
    const lines = admins.map(({ username, wasOn }) =>
      wasOn
        ? `Two-factor sign-in is now off for the admin "${username}"; its recovery codes were deleted.`
        : `Two-factor sign-in was already off for the admin "${username}".`,
    );
    lines.push(
      "Every existing session has been signed out. Sign in with the password alone, then turn it on again in Account.",
    );
    console.log(lines.join("\n"));
  });
}
