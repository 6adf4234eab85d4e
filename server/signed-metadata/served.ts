import { checksumAddress } from "../chain/values";
import { DomainError } from "../lib/domain-error";
import { statementJson } from "./statement-json";
import type { Statement } from "./store";

/** A statement with the JSON text it serves. */
export interface Served {
  statement: Statement;
  json: string;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The statements that can be served, each with its JSON text. A statement is stored as the Base64 its issuer signed
 * (kept for verification); what it serves is the decoded text. One checked when it was posted serves that text as it
 * is. One stored before the rules is checked now: a leading byte-order mark (the old check let it through) is not
 * served, and one that breaks another rule is left out of every answer; it stays stored, with its history.
 */
export function servable(statements: Statement[]): Served[] {
  const served: Served[] = [];
  for (const statement of statements) {
    const json = servedJson(statement);
    if (json !== undefined) served.push({ statement, json });
  }
  return served;
}

function servedJson(statement: Statement): string | undefined {
  const bytes = Buffer.from(statement.metadataB64, "base64");
  if (statement.jsonChecked) return bytes.toString("utf8");
  try {
    return statementJson(bytes.subarray(bytes.subarray(0, 3).equals(BOM) ? 3 : 0));
  } catch (error) {
    if (error instanceof DomainError) return undefined;
    throw error;
  }
}

/** `{"<issuer>": <entry>, ...}` with checksummed issuers, each entry's JSON embedded as it is (never re-serialized). */
export function byIssuer(served: Served[], entry: (s: Served) => string): string {
  return `{${served.map((s) => `${JSON.stringify(checksumAddress(s.statement.issuer))}:${entry(s)}`).join(",")}}`;
}

/** The metadata object itself, as signed: key order and the digits of numbers kept. */
export const metadataObject = (s: Served): string => s.json;

/** Everything a reader needs to check the statement: the signed text can be verified against `sig` and `iss`. */
export function rawRecord({ statement: s, json }: Served): string {
  const record = JSON.stringify({
    iss: checksumAddress(s.issuer),
    sig: s.signature,
    metadata: s.metadataB64,
    text: s.signedText,
    binding: s.binding,
    signer: s.signerKind,
    time: Math.floor(s.postedAt.getTime() / 1000),
    posted_at: s.postedAt.toISOString(),
  });
  return `${record.slice(0, -1)},"data":${json}}`;
}
