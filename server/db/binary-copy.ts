const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** The value of each hex digit's character code; 256 (no byte) for any other code below 128. */
const HEX_VALUE = new Uint16Array(128).fill(256);
for (let i = 0; i < 16; i++) {
  HEX_VALUE["0123456789abcdef".charCodeAt(i)] = i;
  HEX_VALUE["0123456789ABCDEF".charCodeAt(i)] = i;
}

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
  /** numeric's base-10000 digits: 2^256 has 20 of them. */
  private readonly digits: number[] = new Array<number>(20).fill(0);

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
    this.put16(this.columns);
    this.fieldsLeft = this.columns;
    this.rows++;
    return this;
  }

  null(): this {
    this.field(0);
    this.put32(-1);
    return this;
  }

  /** smallint */
  int2(value: number): this {
    this.field(2, value);
    if (value < -0x8000 || value > 0x7fff) throw new RangeError(`not a smallint: ${value}`);
    this.put32(2);
    this.put16(value);
    return this;
  }

  /** integer */
  int4(value: number): this {
    this.field(4, value);
    if (value < -0x80000000 || value > 0x7fffffff) throw new RangeError(`not an integer: ${value}`);
    this.put32(4);
    this.put32(value);
    return this;
  }

  /** bigint, from a safe integer; undefined or null is NULL. */
  int8(value: number | undefined | null): this {
    if (value === undefined || value === null) return this.null();
    this.field(8, value);
    this.put32(8);
    // Two 32-bit halves: no BigInt for the common case.
    const high = Math.floor(value / 2 ** 32);
    this.put32(high);
    this.put32(value - high * 2 ** 32);
    return this;
  }

  /** bytea, from hex text with its 0x prefix (an address or a hash). */
  bytes(hex: string): this {
    const length = (hex.length - 2) / 2;
    if (!Number.isInteger(length) || hex.charCodeAt(0) !== 0x30 || (hex.charCodeAt(1) | 0x20) !== 0x78)
      throw new TypeError(`not hex bytes: ${hex.slice(0, 80)}`);
    this.field(length);
    this.put32(length);
    // Decoded here: for the 20 or 32 bytes of an address or a hash, cheaper than a slice and Buffer#write.
    const buffer = this.buffer;
    for (let i = 0, at = this.at; i < length; i++, at++) {
      const high = hex.charCodeAt(2 + 2 * i);
      const low = hex.charCodeAt(3 + 2 * i);
      // A code past the table's is no hex digit; one in it that is none has the value 256.
      const byte = (high | low) < 128 ? (HEX_VALUE[high] << 4) | HEX_VALUE[low] : 256;
      if (byte > 0xff) throw new TypeError(`not hex bytes: ${hex.slice(0, 80)}`);
      buffer[at] = byte;
    }
    this.at += length;
    return this;
  }

  /** numeric with no fraction, from a bigint (a token id: up to 2^256 − 1, 78 digits). */
  numeric(value: bigint): this {
    if (typeof value !== "bigint") throw new TypeError(`not a bigint: ${String(value)}`);
    const negative = value < 0n;
    const magnitude = negative ? -value : value;
    // Base-10000 digits, least significant first; the zero digits at that end are left out (the weight keeps the value).
    const digits = this.digits;
    let count = 0;
    if (magnitude <= MAX_SAFE) {
      for (let rest = Number(magnitude); rest > 0; rest = Math.floor(rest / 10_000)) digits[count++] = rest % 10_000;
    } else {
      const text = magnitude.toString();
      for (let end = text.length; end > 0; end -= 4) digits[count++] = Number(text.slice(Math.max(0, end - 4), end));
    }
    const weight = count - 1;
    let low = 0;
    while (low < count && digits[low] === 0) low++;
    const stored = count - low;
    this.field(8 + stored * 2);
    this.put32(8 + stored * 2);
    this.put16(stored);
    this.put16(stored === 0 ? 0 : weight);
    this.put16(negative ? 0x4000 : 0);
    // Display scale: no fraction.
    this.put16(0);
    for (let i = count - 1; i >= low; i--) this.put16(digits[i]);
    return this;
  }

  /** The rows with the format's trailer: what COPY … FROM STDIN (FORMAT binary) reads. */
  done(): Buffer {
    if (this.fieldsLeft !== 0) throw new TypeError(`the last row has ${this.fieldsLeft} fields missing`);
    this.room(2);
    this.at = this.buffer.writeInt16BE(-1, this.at);
    return this.buffer.subarray(0, this.at);
  }

  /** A 16-bit integer, big-endian, in room already made (the bits of a negative one as two's complement). */
  private put16(value: number): void {
    const at = this.at;
    this.buffer[at] = value >>> 8;
    this.buffer[at + 1] = value;
    this.at = at + 2;
  }

  /** A 32-bit integer, big-endian, in room already made (signed or unsigned: the same bits). */
  private put32(value: number): void {
    const at = this.at;
    this.buffer[at] = value >>> 24;
    this.buffer[at + 1] = value >>> 16;
    this.buffer[at + 2] = value >>> 8;
    this.buffer[at + 3] = value;
    this.at = at + 4;
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
