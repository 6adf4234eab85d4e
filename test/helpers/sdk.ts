import { expect } from "chai";
import { ApiError } from "../../sdk/src/index";
import type { Answer } from "./refusal";

/** The rejection of `promise`, which must reject. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return expect.fail("the call resolved; a rejection was expected");
}

/**
 * A refusal the SDK threw, as the answer it stands for, for `expectRefusal`: it must be an `ApiError`, and its
 * status, code and message are the service's.
 */
export function sdkRefusal(error: unknown): Answer {
  expect(error, String(error)).to.be.instanceOf(ApiError);
  const { status, code, message } = error as ApiError;
  return { status, body: { error: code, message } };
}
