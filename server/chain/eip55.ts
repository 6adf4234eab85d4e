/**
 * EIP-55 checksums, computed here rather than by ethers' `getAddress`: a page of transfers or holders names up to 200
 * addresses, and over a large index most of them were not seen lately, so the hash is on the hot path of every
 * history, holders and inventory page, and of the indexer's first write of each address.
 *
 * The hash is Keccak-256 cut down to the one case EIP-55 needs (40 ASCII bytes, one block of the sponge, the first 20
 * bytes of the digest), run as a small WebAssembly function this module writes out below: Keccak works on 64-bit
 * lanes, which WebAssembly has and JavaScript has not (written in JavaScript on 32-bit halves it cost about four times
 * as much: bench/suites/checksums.ts). The function also upper-cases the letters, so an address costs one write of
 * its text into the module's memory, one call and one read of the answer. `test/server/chain/eip55.test.ts` holds it
 * to ethers' checksum over random addresses.
 */

/**
 * The module's memory (one 64 KiB page, never grown): where the address is written, where the function leaves the
 * digest and the answer, and where the round constants are kept.
 */
const MEMORY = { address: 0, digest: 48, answer: 256, roundConstants: 512 } as const;

/** Keccak-f[1600]'s round constants, ι's (FIPS 202, 3.2.5). */
function roundConstants(): bigint[] {
  const constants: bigint[] = [];
  let r = 1;
  for (let round = 0; round < 24; round++) {
    let constant = 0n;
    for (let j = 0; j < 7; j++) {
      r = ((r << 1) ^ ((r >> 7) * 0x71)) & 0xff;
      if (r & 2) constant |= 1n << BigInt((1 << j) - 1);
    }
    constants.push(constant);
  }
  return constants;
}

/** Each lane's rotation in ρ, lane x + 5y (FIPS 202, 3.2.2). */
function rotations(): number[] {
  const offsets = new Array<number>(25).fill(0);
  for (let t = 0, x = 1, y = 0; t < 24; t++) {
    offsets[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
  return offsets;
}

/** The WebAssembly instructions used below, by their names in the specification's text format. */
const OP = {
  loop: 0x03,
  end: 0x0b,
  brIf: 0x0d,
  localGet: 0x20,
  localSet: 0x21,
  localTee: 0x22,
  i64Load: 0x29,
  i32Load8U: 0x2d,
  i64Store: 0x37,
  i32Store8: 0x3a,
  i32Const: 0x41,
  i64Const: 0x42,
  i32LtU: 0x49,
  i32GtU: 0x4b,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32And: 0x71,
  i32Shl: 0x74,
  i32ShrU: 0x76,
  i64And: 0x83,
  i64Xor: 0x85,
  i64Rotl: 0x89,
} as const;
const I32 = 0x7f;
const I64 = 0x7e;
const VOID_BLOCK = 0x40;

const unsignedLeb = (n: number): number[] => {
  const bytes: number[] = [];
  do {
    const low = n & 0x7f;
    n >>>= 7;
    bytes.push(n ? low | 0x80 : low);
  } while (n);
  return bytes;
};
const signedLeb = (n: bigint): number[] => {
  const bytes: number[] = [];
  for (;;) {
    const low = Number(n & 0x7fn);
    n >>= 7n;
    if ((n === 0n && !(low & 0x40)) || (n === -1n && low & 0x40)) return [...bytes, low];
    bytes.push(low | 0x80);
  }
};

/**
 * The body of `eip55()`: reads `0x` and 40 lowercase hex digits at MEMORY.address, writes `0x` and the checksummed
 * digits at MEMORY.answer. Locals 0–24 are the state's lanes (x + 5y), 25–49 the lanes after ρ and π, 50–54 θ's
 * column parities, 55 θ's term; then the i32 locals: the round's byte offset in the constants, a digit pair's index,
 * the digest's byte and a digit.
 */
function checksumBody(): number[] {
  const [A, B, C] = [(i: number) => i, (i: number) => 25 + i, (i: number) => 50 + i];
  const [D, ROUND, PAIR, BYTE, DIGIT] = [55, 56, 57, 58, 59];
  const code: number[] = [];
  const emit = (...bytes: number[]) => code.push(...bytes);
  const get = (local: number) => emit(OP.localGet, ...unsignedLeb(local));
  const set = (local: number) => emit(OP.localSet, ...unsignedLeb(local));
  const i32 = (n: number) => emit(OP.i32Const, ...signedLeb(BigInt(n)));
  const i64 = (n: bigint) => emit(OP.i64Const, ...signedLeb(n));
  const memarg = (offset: number, alignLog2: number) => [alignLog2, ...unsignedLeb(offset)];

  // Absorbing: the 40 digits are lanes 0–4 (little-endian, as Keccak reads bytes), the padding a 1 after them (lane 5)
  // and a 1 in the block's last bit (lane 16, the rate being 136 bytes); the other lanes start at 0.
  for (let lane = 0; lane < 5; lane++) {
    i32(0);
    emit(OP.i64Load, ...memarg(MEMORY.address + 2 + 8 * lane, 0));
    set(A(lane));
  }
  i64(1n);
  set(A(5));
  i64(-(2n ** 63n));
  set(A(16));

  // The 24 rounds of Keccak-f[1600], one pass of the loop each.
  const rotation = rotations();
  i32(0);
  set(ROUND);
  emit(OP.loop, VOID_BLOCK);
  // θ: each column's parity, and each lane xored with its neighbouring columns' (the right one rotated by 1).
  for (let x = 0; x < 5; x++) {
    get(A(x));
    for (let y = 1; y < 5; y++) {
      get(A(x + 5 * y));
      emit(OP.i64Xor);
    }
    set(C(x));
  }
  for (let x = 0; x < 5; x++) {
    get(C((x + 4) % 5));
    get(C((x + 1) % 5));
    i64(1n);
    emit(OP.i64Rotl, OP.i64Xor);
    set(D);
    for (let y = 0; y < 5; y++) {
      get(A(x + 5 * y));
      get(D);
      emit(OP.i64Xor);
      set(A(x + 5 * y));
    }
  }
  // ρ and π: each lane rotated by its offset and moved to its place (lane x + 5y goes to y + 5((2x + 3y) mod 5)).
  for (let x = 0; x < 5; x++)
    for (let y = 0; y < 5; y++) {
      get(A(x + 5 * y));
      if (rotation[x + 5 * y]) {
        i64(BigInt(rotation[x + 5 * y]));
        emit(OP.i64Rotl);
      }
      set(B(y + 5 * ((2 * x + 3 * y) % 5)));
    }
  // χ: each lane xored with the next one's complement and the one after.
  for (let y = 0; y < 5; y++)
    for (let x = 0; x < 5; x++) {
      get(B(x + 5 * y));
      get(B(((x + 1) % 5) + 5 * y));
      i64(-1n);
      emit(OP.i64Xor);
      get(B(((x + 2) % 5) + 5 * y));
      emit(OP.i64And, OP.i64Xor);
      set(A(x + 5 * y));
    }
  // ι: the round's constant into lane 0; then the next round while there is one.
  get(A(0));
  get(ROUND);
  emit(OP.i64Load, ...memarg(MEMORY.roundConstants, 3), OP.i64Xor);
  set(A(0));
  get(ROUND);
  i32(8);
  emit(OP.i32Add, OP.localTee, ...unsignedLeb(ROUND));
  i32(24 * 8);
  emit(OP.i32LtU, OP.brIf, 0, OP.end);

  // Squeezing: the digest's first 24 bytes (20 are used).
  for (let lane = 0; lane < 3; lane++) {
    i32(0);
    get(A(lane));
    emit(OP.i64Store, ...memarg(MEMORY.digest + 8 * lane, 3));
  }
  // EIP-55: digest byte j's high nibble decides digit 2j, its low one digit 2j + 1; a letter (a to f, above 0x60) whose
  // bit is set is upper-cased by taking 32 off its code.
  i32(0);
  set(PAIR);
  emit(OP.loop, VOID_BLOCK);
  get(PAIR);
  emit(OP.i32Load8U, ...memarg(MEMORY.digest, 0));
  set(BYTE);
  for (const [digit, bit] of [
    [0, 7],
    [1, 3],
  ]) {
    get(PAIR);
    i32(1);
    emit(OP.i32Shl, OP.i32Load8U, ...memarg(MEMORY.address + 2 + digit, 0));
    set(DIGIT);
    get(PAIR);
    i32(1);
    emit(OP.i32Shl);
    get(DIGIT);
    get(DIGIT);
    i32(0x60);
    emit(OP.i32GtU);
    get(BYTE);
    i32(bit);
    emit(OP.i32ShrU, OP.i32And);
    i32(5);
    emit(OP.i32Shl, OP.i32Sub, OP.i32Store8, ...memarg(MEMORY.answer + 2 + digit, 0));
  }
  get(PAIR);
  i32(1);
  emit(OP.i32Add, OP.localTee, ...unsignedLeb(PAIR));
  i32(20);
  emit(OP.i32LtU, OP.brIf, 0, OP.end, OP.end);
  return [...unsignedLeb(2), ...unsignedLeb(56), I64, ...unsignedLeb(4), I32, ...code];
}

/** A module of one function, `eip55: [] -> []`, and its memory, both exported. */
function checksumModule(): Uint8Array {
  const section = (id: number, ...entries: number[][]) => {
    const body = [...unsignedLeb(entries.length), ...entries.flat()];
    return [id, ...unsignedLeb(body.length), ...body];
  };
  const name = (text: string) => [...unsignedLeb(text.length), ...Buffer.from(text, "latin1")];
  const body = checksumBody();
  const [TYPE, FUNCTION, MEMORY_SECTION, EXPORT, CODE] = [1, 3, 5, 7, 10];
  const [FUNC_TYPE, EXPORT_FUNC, EXPORT_MEMORY] = [0x60, 0, 2];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(TYPE, [FUNC_TYPE, 0, 0]),
    ...section(FUNCTION, [0]),
    ...section(MEMORY_SECTION, [0, 1]),
    ...section(EXPORT, [...name("memory"), EXPORT_MEMORY, 0], [...name("eip55"), EXPORT_FUNC, 0]),
    ...section(CODE, [...unsignedLeb(body.length), ...body]),
  ]);
}

/** What is used of Node's WebAssembly global, which the project's TypeScript libraries (ES2022, no DOM) do not declare. */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: { memory: { buffer: ArrayBuffer }; eip55: () => void } };
}

const checksum = (() => {
  const { Module, Instance } = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly;
  const { exports } = new Instance(new Module(checksumModule()));
  const memory = Buffer.from(exports.memory.buffer, 0, 1024);
  roundConstants().forEach((constant, round) => memory.writeBigUInt64LE(constant, MEMORY.roundConstants + 8 * round));
  memory.write("0x", MEMORY.answer, "latin1");
  return { memory, run: exports.eip55 };
})();

/**
 * The EIP-55 form of `0x` followed by 40 lowercase hex digits (which the caller guarantees): each letter upper-cased
 * where the matching nibble of keccak256 of the 40 digits is 8 or more.
 */
export function eip55(address: string): string {
  // A shorter text would leave the previous address's last digits in the memory and be checksummed with them.
  if (address.length !== 42) throw new TypeError(`eip55: not an address: ${address}`);
  checksum.memory.write(address, MEMORY.address, "latin1");
  checksum.run();
  return checksum.memory.toString("latin1", MEMORY.answer, MEMORY.answer + 42);
}
