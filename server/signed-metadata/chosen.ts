import { Type } from "typebox";
import { parseAddress } from "../chain/values";
import { DomainError } from "../lib/domain-error";

/** The `issuers` query parameter of the routes that embed statements. */
export const IssuersQuery = Type.Optional(
  Type.String({
    description:
      "Comma-separated issuers whose statements the answer carries first (at most SIGNED_METADATA_ANSWER_MAX_ISSUERS); " +
      "the answer is filled up with the most recently posted ones",
    // Empty: the examples read one issuer with iss, which issuers may not join, and Swagger UI leaves an empty
    // optional parameter out.
    examples: [""],
  }),
);

/** The header that counts the statements an answer left out. */
export const SignedOmittedHeaders = {
  "X-Signed-Omitted": {
    type: "integer",
    description:
      "When the target has more current statements than SIGNED_METADATA_ANSWER_MAX_ISSUERS: how many the answer left out " +
      "(it carries the issuers named in issuers first, then the most recent)",
  },
};

/** The issuers a reader named in `issuers`, lower-case and each once; more than `max` is refused. */
export function namedIssuers(text: string | undefined, max: number): string[] {
  if (text === undefined || text === "") return [];
  const parts = text.split(",");
  // Checked before the addresses are: the list's length is the reader's to bound, not the service's to parse.
  if (parts.length > max) {
    throw new DomainError("invalid", "invalid_request", `issuers names at most ${max} issuers (SIGNED_METADATA_ANSWER_MAX_ISSUERS)`);
  }
  return [...new Set(parts.map((part) => parseAddress(part.trim(), "issuers").toLowerCase()))];
}

/** Why an answer carries fewer statements than there are, and how to ask for the others. */
export const omissionMessage = (omitted: number, max: number) =>
  `omitted: ${omitted} more issuers' statements; an answer carries at most SIGNED_METADATA_ANSWER_MAX_ISSUERS (${max}), ` +
  "those named in issuers first, then the most recent; name the issuers you want with ?issuers=0x…,0x… or read one with GET /metadata/…?iss=";
