import { Type, type Static } from "@sinclair/typebox";

export const LoginInput = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 64, error: "Username is required" }),
  password: Type.String({ minLength: 1, maxLength: 256, error: "Password is required" }),
});
export type LoginInput = Static<typeof LoginInput>;

export interface AdminUser {
  id: number;
  username: string;
}
