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
