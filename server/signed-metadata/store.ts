import { createHash } from "node:crypto";
import { arrayLiteral } from "../db/arrays";
import type { Database, Queryable } from "../db/database";
import { replayed } from "./errors";
import type { Target } from "./signed-text";

export interface Statement {
  /** Lower-case issuer. */
  issuer: string;
  metadataB64: string;
  signature: string;
  signedText: string;
  binding: "target" | "none";
  signerKind: string;
  /** The JSON was checked against the served rules when it was posted (false: stored before them). */
  jsonChecked: boolean;
  postedAt: Date;
}

export interface NewStatement extends Omit<Statement, "postedAt" | "issuer"> {
  issuer: string;
}

/** The WHERE clause and parameters that select one target, in the indexes' terms (accounts have token id -1). */
function where(target: Target, first: number): { sql: string; params: unknown[] } {
  const address = target.kind === "nft" ? target.contract : target.account;
  return {
    sql: `kind = $${first} AND network = $${first + 1} AND target = $${first + 2} AND coalesce(token_id, -1) = $${first + 3}`,
    params: [target.kind, target.network, address.toLowerCase(), target.kind === "nft" ? target.tokenId.toString() : "-1"],
  };
}

/**
 * Stores a verified statement as the issuer's current one for the target. Posts of one issuer to one target are
 * serialized (a transaction-scoped advisory lock), so concurrent posts end with exactly one current version and the
 * whole history. The current body again changes nothing ("unchanged"), except that the issuer's bound signature of
 * it replaces an unbound one; a body this issuer posted before and then
 * replaced is refused (`replayed`), so an old, validly signed version cannot be rolled back in by anyone.
 */
export async function saveStatement(db: Database, target: Target, statement: NewStatement): Promise<"stored" | "unchanged"> {
  const issuer = statement.issuer.toLowerCase();
  return db.transaction(async (tx: Queryable) => {
    const key = where(target, 1);
    await tx.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [JSON.stringify([...key.params, issuer])]);
    const issuerParam = key.params.length + 1;
    const current = await tx.query<{ id: string; metadata_b64: string; binding: "target" | "none" }>(
      `SELECT id, metadata_b64, binding FROM metadata_posts WHERE ${key.sql} AND issuer = $${issuerParam} AND current`,
      [...key.params, issuer],
    );
    const same = current.rows[0]?.metadata_b64 === statement.metadataB64;
    // The same body signed over the target's text is the stronger statement: it replaces an unbound record of it
    // (which anyone who saw the issuer's signature elsewhere may have posted first).
    const strengthens = same && current.rows[0].binding === "none" && statement.binding === "target";
    if (same && !strengthens) return "unchanged";
    const bodyHash = createHash("sha256").update(statement.metadataB64).digest();
    const postedBefore = await tx.query(
      `SELECT 1 FROM metadata_posts WHERE ${key.sql} AND issuer = $${issuerParam} AND body_hash = $${issuerParam + 1} LIMIT 1`,
      [...key.params, issuer, bodyHash],
    );
    if (postedBefore.rowCount > 0 && !strengthens) throw replayed();
    if (current.rows[0]) await tx.query("UPDATE metadata_posts SET current = false WHERE id = $1", [current.rows[0].id]);
    await tx.query(
      `INSERT INTO metadata_posts (kind, network, target, token_id, issuer, metadata_b64, body_hash, signature, signed_text, binding, signer_kind, json_checked)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        target.kind,
        target.network,
        key.params[2],
        target.kind === "nft" ? target.tokenId.toString() : null,
        issuer,
        statement.metadataB64,
        bodyHash,
        statement.signature,
        statement.signedText,
        statement.binding,
        statement.signerKind,
        statement.jsonChecked,
      ],
    );
    return "stored";
  });
}

const COLUMNS = "issuer, metadata_b64, signature, signed_text, binding, signer_kind, json_checked, posted_at";

interface StatementRow {
  issuer: string;
  metadata_b64: string;
  signature: string;
  signed_text: string;
  binding: "target" | "none";
  signer_kind: string;
  json_checked: boolean;
  posted_at: Date;
}

const statementOf = (row: StatementRow): Statement => ({
  issuer: row.issuer,
  metadataB64: row.metadata_b64,
  signature: row.signature,
  signedText: row.signed_text,
  binding: row.binding,
  signerKind: row.signer_kind,
  jsonChecked: row.json_checked,
  postedAt: row.posted_at,
});

/** One issuer's current statement about `target`, if it has one. */
export async function issuerStatement(db: Database, target: Target, issuer: string): Promise<Statement | undefined> {
  const key = where(target, 1);
  const { rows } = await db.query<StatementRow>(
    `SELECT ${COLUMNS} FROM metadata_posts WHERE ${key.sql} AND current AND issuer = $${key.params.length + 1}`,
    [...key.params, issuer.toLowerCase()],
    { prepare: true },
  );
  return rows[0] && statementOf(rows[0]);
}

/** The statements an answer carries, by issuer, and how many current ones it left out. */
export interface ChosenStatements {
  statements: Statement[];
  omitted: number;
}

/**
 * How many of a target's current statements an answer counts at most: past it `omitted` stops growing, so that the
 * count costs the same however many keys post about one target.
 */
export const OMITTED_COUNT_MAX = 10_000;

/**
 * The current statements of at most `max` issuers about `target`, by issuer: those of the `named` issuers first, then
 * the most recently posted (ties by issuer), so that an answer stays bounded however many keys post about one target,
 * and a reader who names the issuers it trusts always gets theirs. `omitted` counts the current statements left out,
 * of the first OMITTED_COUNT_MAX. The statement reads at most `max` named rows, `max` recent ones (from the index in
 * posting order) and OMITTED_COUNT_MAX index entries, however many statements the target has.
 */
export async function chosenStatements(
  db: Database,
  { target, named, max }: { target: Target; named: readonly string[]; max: number },
): Promise<ChosenStatements> {
  const key = where(target, 1);
  const next = key.params.length + 1;
  const { rows } = await db.query<StatementRow & { total: number }>(
    `WITH named AS (
       SELECT ${COLUMNS} FROM metadata_posts WHERE ${key.sql} AND current AND issuer = ANY($${next}::text[])
     ), recent AS (
       SELECT ${COLUMNS} FROM metadata_posts WHERE ${key.sql} AND current ORDER BY posted_at DESC, issuer LIMIT $${next + 1}
     ), chosen AS (
       SELECT * FROM (
         SELECT ${COLUMNS}, true AS first FROM named
         UNION ALL
         SELECT ${COLUMNS}, false FROM recent WHERE NOT issuer = ANY($${next}::text[])
       ) candidates ORDER BY first DESC, posted_at DESC, issuer LIMIT $${next + 1}
     )
     SELECT ${COLUMNS},
       (SELECT count(*)::int FROM (SELECT 1 FROM metadata_posts WHERE ${key.sql} AND current LIMIT $${next + 2}) counted) AS total
     FROM chosen ORDER BY issuer`,
    [...key.params, arrayLiteral(named.map((issuer) => issuer.toLowerCase())), max, OMITTED_COUNT_MAX],
    { prepare: true },
  );
  return { statements: rows.map(statementOf), omitted: rows.length === 0 ? 0 : rows[0].total - rows.length };
}
