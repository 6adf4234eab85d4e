/**
 * The read routes that embed issuer-signed statements, and the check that an answer is JSON every reader takes: what
 * the metadata tests and the fuzz assert after a hostile post.
 */

// ignoreBOM: a byte-order mark stays in the text, where JSON.parse refuses it as the readers that embed it would.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/** With the u flag a paired surrogate is one code point: only a lone half matches. */
const LONE_SURROGATE = /\p{Cs}/u;
/** serde_json's default recursion limit: deeper answers are refused by Rust readers as they come. */
const READER_DEPTH = 128;

/**
 * Why `bytes` is not an answer every JSON reader takes, or undefined: well-formed UTF-8 with no byte-order mark, one
 * JSON text, no string or key that is not Unicode text, nested at most 128 deep. The last two are checked on the
 * parsed value, since JSON.parse takes an escaped lone surrogate (`"\ud800"`, plain ASCII on the wire) that other
 * readers refuse or replace, and any depth.
 */
export function jsonAnswerProblem(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return "not well-formed UTF-8";
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `not JSON (${(error as Error).message.slice(0, 120)})`;
  }
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item === "string" && LONE_SURROGATE.test(item)) return "a string with a lone surrogate";
    if (typeof item !== "object" || item === null) continue;
    if (depth >= READER_DEPTH) return `nested deeper than ${READER_DEPTH}`;
    for (const [key, inner] of Object.entries(item)) {
      if (LONE_SURROGATE.test(key)) return "a key with a lone surrogate";
      pending.push([inner, depth + 1]);
    }
  }
  return undefined;
}

export interface StatementTargets {
  network: string;
  /** An indexed NFT with statements about it. */
  contract: string;
  id: bigint;
  /** Its owner (for the inventory). */
  owner: string;
  /** An account with statements about it. */
  account: string;
  /** Issuers whose `?iss=` reads are asked too. */
  issuers: string[];
}

/**
 * Every read that embeds the statements of the targets: the token route (also naming the issuers), the NFT metadata
 * routes on both prefixes in each format, with and without `?iss=`, and naming the issuers in `?issuers=`, the
 * account's metadata likewise, and the token inventory with metadata.
 */
export function statementReadPaths(targets: StatementTargets): string[] {
  const { network, contract, id, owner, account } = targets;
  const formats = ["", "?format=json", "?format=raw", "?Format=raw"];
  const byIssuer = targets.issuers.flatMap((iss) => [`?iss=${iss}`, `?iss=${iss}&format=raw`]);
  const named =
    targets.issuers.length === 0 ? [] : [`?issuers=${targets.issuers.join(",")}`, `?issuers=${targets.issuers.join(",")}&format=raw`];
  const queries = [...formats, ...byIssuer, ...named];
  return [
    `/token/${network}/${contract}/${id}`,
    ...(targets.issuers.length === 0 ? [] : [`/token/${network}/${contract}/${id}?issuers=${targets.issuers.join(",")}`]),
    ...queries.map((q) => `/metadata/${network}/${contract}/${id}${q}`),
    ...queries.map((q) => `/metadata/ethereum/${network}/${contract}/${id}${q}`),
    ...queries.map((q) => `/metadata/ethereum/${network}/${account}${q}`),
    `/inventory/${network}/${owner}/${contract}?metadata=true`,
  ];
}

export interface RawAnswer {
  status: number;
  contentType: string;
  bytes: Uint8Array;
}

/** Each of `paths` whose answer is not JSON every reader takes (a 5xx counts too), described: none when all are. */
export async function unreadableAnswers(paths: string[], get: (path: string) => Promise<RawAnswer>): Promise<string[]> {
  const problems: string[] = [];
  for (const path of paths) {
    const answer = await get(path);
    const problem =
      answer.status >= 500
        ? `status ${answer.status}`
        : !answer.contentType.startsWith("application/json")
          ? `content type ${answer.contentType}`
          : jsonAnswerProblem(answer.bytes);
    if (problem) problems.push(`${path}: ${answer.status} ${problem}: ${Buffer.from(answer.bytes).toString("utf8").slice(0, 120)}`);
  }
  return problems;
}
