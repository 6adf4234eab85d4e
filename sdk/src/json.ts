/**
 * The service sends token ids, balances, counts, block numbers and wei as JSON numbers with all their digits, which
 * `JSON.parse` would round above 2^53. This reads every integer of an answer as its decimal string instead, except the
 * fields that are always small ({@link SMALL_INTEGER_FIELDS}) and anything inside a token's free-form documents
 * ({@link FREE_FORM_FIELDS}), which keep the numbers their authors wrote. The generated types follow the same rule
 * (test/sdk/types.test.ts generates them with it), so what this returns is what they say.
 */

/** Integer fields that stay JavaScript numbers: times in unix seconds, positions in a block or a batch, lifetimes. */
export const SMALL_INTEGER_FIELDS: readonly string[] = ["time", "logIndex", "batchIndex", "expires_in"];

/** Fields that hold JSON written by someone else (a token's metadata, issuers' statements): read as they are. */
export const FREE_FORM_FIELDS: readonly string[] = ["metadata", "signed"];

const TOKEN = /"(?:[^"\\]|\\.)*"|[{}[\]:]|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/** `JSON.parse`, with integers as decimal strings (see the module's comment). */
export function parseJson(text: string): unknown {
  // The key each open object or array sits under; `key` is the one the next value sits under.
  const under: Array<string | undefined> = [];
  let freeForm = 0;
  let key: string | undefined;
  let previous = "";
  const quoted = text.replace(TOKEN, (token) => {
    const last = previous;
    previous = token;
    switch (token[0]) {
      case ":":
        key = JSON.parse(last) as string;
        return token;
      case "{":
      case "[":
        under.push(key);
        if (key !== undefined && FREE_FORM_FIELDS.includes(key)) freeForm++;
        return token;
      case "}":
      case "]": {
        const closed = under.pop();
        if (closed !== undefined && FREE_FORM_FIELDS.includes(closed)) freeForm--;
        key = under[under.length - 1];
        return token;
      }
      case '"':
        return token;
      default:
        if (freeForm > 0 || /[.eE]/.test(token) || (key !== undefined && SMALL_INTEGER_FIELDS.includes(key))) return token;
        return `"${token}"`;
    }
  });
  return JSON.parse(quoted);
}
