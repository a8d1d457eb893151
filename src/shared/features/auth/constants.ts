/** The sign-in form's two required fields and their messages; LoginInput uses the same ones. */
export const LOGIN_REQUIRED = {
  username: "Username is required",
  password: "Password is required",
} as const;

export type LoginField = keyof typeof LOGIN_REQUIRED;
