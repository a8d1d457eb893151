import { HttpError } from "#server/plugins/errors.ts";

/** The HttpError that `work` is refused with; any other error is thrown on, and success fails with `unrefused`. */
export async function refusal(work: Promise<unknown>, unrefused: string): Promise<HttpError> {
  try {
    await work;
  } catch (error) {
    if (error instanceof HttpError) return error;
    throw error;
  }
  throw new Error(unrefused);
}
