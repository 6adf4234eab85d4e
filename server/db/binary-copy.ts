/**
 * Rows in PostgreSQL's binary COPY format, for `Queryable.copyBinary`: the database reads each value as it is stored,
 * with no text to parse (a hash as 32 bytes, not 66 characters to decode). Values are checked as they are written,
 * so a malformed one throws here (a `TypeError`, or a `RangeError` for an integer past its type) rather than a
 * database error mid-statement.
 * The format (PostgreSQL's COPY reference, "Binary Format"): a signature, flags and a header extension length; per row
 * a field count, then per field its length (-1 for NULL) and the value in the type's binary form; a trailer of -1.
 */
export class BinaryRows {
  private buffer: Buffer;
  private at = 0;
  private rows = 0;
  private fieldsLeft = 0;

  /** `columns`: the number of fields of every row, as many as the COPY statement names. */
  constructor(
    private readonly columns: number,
    sizeHint = 1024,
  ) {
    this.buffer = Buffer.allocUnsafe(Math.max(64, sizeHint));
    this.at += this.buffer.write("PGCOPY\n\xff\r\n\0", 0, "latin1");
    // Flags (no OIDs) and the header extension's length: both 0.
    this.at = this.buffer.writeUInt32BE(0, this.buffer.writeUInt32BE(0, this.at));
  }

  /** How many rows were started. */
  get count(): number {
    return this.rows;
  }

  /** Starts a row: `columns` fields must follow. */
  row(): this {
    if (this.fieldsLeft !== 0) throw new TypeError(`the row before has ${this.fieldsLeft} fields missing`);
    this.room(2);
    this.at = this.buffer.writeInt16BE(this.columns, this.at);
    this.fieldsLeft = this.columns;
    this.rows++;
    return this;
  }

  null(): this {
    this.field(0);
    this.at = this.buffer.writeInt32BE(-1, this.at);
    return this;
  }

  /** smallint */
  int2(value: number): this {
    this.field(2, value);
    this.at = this.buffer.writeInt16BE(value, this.buffer.writeInt32BE(2, this.at));
    return this;
  }

  /** integer */
  int4(value: number): this {
    this.field(4, value);
    this.at = this.buffer.writeInt32BE(value, this.buffer.writeInt32BE(4, this.at));
    return this;
  }

  /** bigint, from a safe integer; undefined or null is NULL. */
  int8(value: number | undefined | null): this {
    if (value === undefined || value === null) return this.null();
    this.field(8, value);
    this.at = this.buffer.writeInt32BE(8, this.at);
    // Two 32-bit halves: no BigInt for the common case.
    const high = Math.floor(value / 2 ** 32);
    this.at = this.buffer.writeInt32BE(high, this.at);
    this.at = this.buffer.writeUInt32BE(value - high * 2 ** 32, this.at);
    return this;
  }

  /** bytea, from hex text with its 0x prefix (an address or a hash). */
  bytes(hex: string): this {
    const length = (hex.length - 2) / 2;
    if (!Number.isInteger(length) || hex[0] !== "0" || (hex[1] !== "x" && hex[1] !== "X"))
      throw new TypeError(`not hex bytes: ${hex.slice(0, 80)}`);
    this.field(length);
    this.at = this.buffer.writeInt32BE(length, this.at);
    // Buffer#write stops at the first character that is not hex: all of it was written, or it is not hex.
    if (this.buffer.write(hex.slice(2), this.at, length, "hex") !== length) throw new TypeError(`not hex bytes: ${hex.slice(0, 80)}`);
    this.at += length;
    return this;
  }

  /** numeric with no fraction, from a bigint (a token id: up to 2^256 − 1, 78 digits). */
  numeric(value: bigint): this {
    if (typeof value !== "bigint") throw new TypeError(`not a bigint: ${String(value)}`);
    const negative = value < 0n;
    const magnitude = negative ? -value : value;
    // Base-10000 digits, most significant first; trailing zero digits are left out (the weight keeps the value).
    let digits: number[];
    if (magnitude < 10_000n) digits = [Number(magnitude)];
    else {
      const text = magnitude.toString();
      const head = text.length % 4 || 4;
      digits = [Number(text.slice(0, head))];
      for (let i = head; i < text.length; i += 4) digits.push(Number(text.slice(i, i + 4)));
    }
    const weight = digits.length - 1;
    while (digits.length > 0 && digits[digits.length - 1] === 0) digits.pop();
    this.field(8 + digits.length * 2);
    this.at = this.buffer.writeInt32BE(8 + digits.length * 2, this.at);
    this.at = this.buffer.writeInt16BE(digits.length, this.at);
    this.at = this.buffer.writeInt16BE(digits.length === 0 ? 0 : weight, this.at);
    this.at = this.buffer.writeUInt16BE(negative ? 0x4000 : 0, this.at);
    // Display scale: no fraction.
    this.at = this.buffer.writeInt16BE(0, this.at);
    for (const digit of digits) this.at = this.buffer.writeInt16BE(digit, this.at);
    return this;
  }

  /** The rows with the format's trailer: what COPY … FROM STDIN (FORMAT binary) reads. */
  done(): Buffer {
    if (this.fieldsLeft !== 0) throw new TypeError(`the last row has ${this.fieldsLeft} fields missing`);
    this.room(2);
    this.at = this.buffer.writeInt16BE(-1, this.at);
    return this.buffer.subarray(0, this.at);
  }

  /**
   * Counts a field against the row and makes room for its length word and `bytes` of value; `integer`, when given,
   * must be a safe integer (writeInt* would drop a fraction silently).
   */
  private field(bytes: number, integer?: number): void {
    if (integer !== undefined && !Number.isSafeInteger(integer)) throw new TypeError(`not an integer: ${integer}`);
    if (this.fieldsLeft === 0) throw new TypeError(this.rows === 0 ? "a field before the first row" : "more fields than columns");
    this.fieldsLeft--;
    this.room(bytes + 4);
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(grown, 0, 0, this.at);
    this.buffer = grown;
  }
}

/** The COPY statement that loads binary rows from `source` (STDIN on PostgreSQL, '/dev/blob' on PGlite). */
export function copyStatement(table: string, columns: readonly string[], source: string): string {
  // Names come from the code, never from input: checked anyway, as they are not parameters.
  for (const name of [table, ...columns]) if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new TypeError(`not a plain SQL name: ${name}`);
  return `COPY ${table} (${columns.join(", ")}) FROM ${source} (FORMAT binary)`;
}
