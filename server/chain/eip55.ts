/**
 * EIP-55 checksums, computed here rather than by ethers' `getAddress`: a page of transfers names up to 200 addresses,
 * and over a large index most of them are not among the recently checksummed (see `checksummer`), so the hash is on the
 * hot path of every history, holders and inventory page. This is Keccak-256 cut down to the one case EIP-55 needs: 40
 * ASCII bytes, one block of the sponge, the first 20 bytes of the digest. `test/server/chain/eip55.test.ts` holds it
 * to ethers' checksum over random addresses.
 */

/** The round constants of ι, as the low and high halves of each 64-bit lane (FIPS 202, 3.2.5). */
const [ROUND_LO, ROUND_HI] = (() => {
  const lo = new Int32Array(24);
  const hi = new Int32Array(24);
  let r = 1;
  for (let round = 0; round < 24; round++) {
    for (let j = 0; j < 7; j++) {
      r = ((r << 1) ^ ((r >> 7) * 0x71)) & 0xff;
      const bit = (1 << j) - 1;
      if (r & 2) {
        if (bit < 32) lo[round] |= 1 << bit;
        else hi[round] |= 1 << (bit - 32);
      }
    }
  }
  return [lo, hi];
})();

/**
 * The EIP-55 form of `0x` followed by 40 lowercase hex digits (which the caller guarantees): each letter upper-cased
 * where the matching nibble of keccak256 of the 40 digits is 8 or more.
 */
export function eip55(address: string): string {
  // The sponge's state in locals, lane x + 5y as its low (a[2(x + 5y)]) and high (a[2(x + 5y) + 1]) 32 bits: V8 keeps
  // them in registers, where a typed array costs about twice as much. The message fills words 0 to 9 (little-endian),
  // the padding is 0x01 after it (word 10) and 0x80 in the block's last byte (word 33, the rate being 136 bytes).
  const w = (i: number) =>
    address.charCodeAt(2 + 4 * i) |
    (address.charCodeAt(3 + 4 * i) << 8) |
    (address.charCodeAt(4 + 4 * i) << 16) |
    (address.charCodeAt(5 + 4 * i) << 24);
  // prettier-ignore
  let a0 = w(0), a1 = w(1), a2 = w(2), a3 = w(3), a4 = w(4), a5 = w(5), a6 = w(6), a7 = w(7), a8 = w(8), a9 = w(9),
    a10 = 0x01, a11 = 0, a12 = 0, a13 = 0, a14 = 0, a15 = 0, a16 = 0, a17 = 0,
    a18 = 0, a19 = 0, a20 = 0, a21 = 0, a22 = 0, a23 = 0, a24 = 0, a25 = 0,
    a26 = 0, a27 = 0, a28 = 0, a29 = 0, a30 = 0, a31 = 0, a32 = 0, a33 = 0x80000000 | 0,
    a34 = 0, a35 = 0, a36 = 0, a37 = 0, a38 = 0, a39 = 0, a40 = 0, a41 = 0,
    a42 = 0, a43 = 0, a44 = 0, a45 = 0, a46 = 0, a47 = 0, a48 = 0, a49 = 0;
  // prettier-ignore
  let b0 = 0, b1 = 0, b2 = 0, b3 = 0, b4 = 0, b5 = 0, b6 = 0, b7 = 0, b8 = 0, b9 = 0, b10 = 0, b11 = 0, b12 = 0,
    b13 = 0, b14 = 0, b15 = 0, b16 = 0, b17 = 0, b18 = 0, b19 = 0, b20 = 0, b21 = 0, b22 = 0, b23 = 0, b24 = 0, b25 = 0,
    b26 = 0, b27 = 0, b28 = 0, b29 = 0, b30 = 0, b31 = 0, b32 = 0, b33 = 0, b34 = 0, b35 = 0, b36 = 0, b37 = 0, b38 = 0,
    b39 = 0, b40 = 0, b41 = 0, b42 = 0, b43 = 0, b44 = 0, b45 = 0, b46 = 0, b47 = 0, b48 = 0, b49 = 0;
  let l = 0;
  let h = 0;
  // prettier-ignore
  for (let round = 0; round < 24; round++) {
    // θ: each column's parity, folded into its neighbours' lanes below.
    const c0 = a0 ^ a10 ^ a20 ^ a30 ^ a40, c1 = a1 ^ a11 ^ a21 ^ a31 ^ a41;
    const c2 = a2 ^ a12 ^ a22 ^ a32 ^ a42, c3 = a3 ^ a13 ^ a23 ^ a33 ^ a43;
    const c4 = a4 ^ a14 ^ a24 ^ a34 ^ a44, c5 = a5 ^ a15 ^ a25 ^ a35 ^ a45;
    const c6 = a6 ^ a16 ^ a26 ^ a36 ^ a46, c7 = a7 ^ a17 ^ a27 ^ a37 ^ a47;
    const c8 = a8 ^ a18 ^ a28 ^ a38 ^ a48, c9 = a9 ^ a19 ^ a29 ^ a39 ^ a49;
    const dl0 = c8 ^ ((c2 << 1) | (c3 >>> 31)), dh0 = c9 ^ ((c3 << 1) | (c2 >>> 31));
    const dl1 = c0 ^ ((c4 << 1) | (c5 >>> 31)), dh1 = c1 ^ ((c5 << 1) | (c4 >>> 31));
    const dl2 = c2 ^ ((c6 << 1) | (c7 >>> 31)), dh2 = c3 ^ ((c7 << 1) | (c6 >>> 31));
    const dl3 = c4 ^ ((c8 << 1) | (c9 >>> 31)), dh3 = c5 ^ ((c9 << 1) | (c8 >>> 31));
    const dl4 = c6 ^ ((c0 << 1) | (c1 >>> 31)), dh4 = c7 ^ ((c1 << 1) | (c0 >>> 31));
    // ρ and π: each lane rotated by its offset and moved to its place (lane x + 5y goes to y + 5((2x + 3y) mod 5)).
    b0 = a0 ^ dl0; b1 = a1 ^ dh0;
    l = a2 ^ dl1; h = a3 ^ dh1;
    b20 = (l << 1) | (h >>> 31); b21 = (h << 1) | (l >>> 31);
    l = a4 ^ dl2; h = a5 ^ dh2;
    b40 = (h << 30) | (l >>> 2); b41 = (l << 30) | (h >>> 2);
    l = a6 ^ dl3; h = a7 ^ dh3;
    b10 = (l << 28) | (h >>> 4); b11 = (h << 28) | (l >>> 4);
    l = a8 ^ dl4; h = a9 ^ dh4;
    b30 = (l << 27) | (h >>> 5); b31 = (h << 27) | (l >>> 5);
    l = a10 ^ dl0; h = a11 ^ dh0;
    b32 = (h << 4) | (l >>> 28); b33 = (l << 4) | (h >>> 28);
    l = a12 ^ dl1; h = a13 ^ dh1;
    b2 = (h << 12) | (l >>> 20); b3 = (l << 12) | (h >>> 20);
    l = a14 ^ dl2; h = a15 ^ dh2;
    b22 = (l << 6) | (h >>> 26); b23 = (h << 6) | (l >>> 26);
    l = a16 ^ dl3; h = a17 ^ dh3;
    b42 = (h << 23) | (l >>> 9); b43 = (l << 23) | (h >>> 9);
    l = a18 ^ dl4; h = a19 ^ dh4;
    b12 = (l << 20) | (h >>> 12); b13 = (h << 20) | (l >>> 12);
    l = a20 ^ dl0; h = a21 ^ dh0;
    b14 = (l << 3) | (h >>> 29); b15 = (h << 3) | (l >>> 29);
    l = a22 ^ dl1; h = a23 ^ dh1;
    b34 = (l << 10) | (h >>> 22); b35 = (h << 10) | (l >>> 22);
    l = a24 ^ dl2; h = a25 ^ dh2;
    b4 = (h << 11) | (l >>> 21); b5 = (l << 11) | (h >>> 21);
    l = a26 ^ dl3; h = a27 ^ dh3;
    b24 = (l << 25) | (h >>> 7); b25 = (h << 25) | (l >>> 7);
    l = a28 ^ dl4; h = a29 ^ dh4;
    b44 = (h << 7) | (l >>> 25); b45 = (l << 7) | (h >>> 25);
    l = a30 ^ dl0; h = a31 ^ dh0;
    b46 = (h << 9) | (l >>> 23); b47 = (l << 9) | (h >>> 23);
    l = a32 ^ dl1; h = a33 ^ dh1;
    b16 = (h << 13) | (l >>> 19); b17 = (l << 13) | (h >>> 19);
    l = a34 ^ dl2; h = a35 ^ dh2;
    b36 = (l << 15) | (h >>> 17); b37 = (h << 15) | (l >>> 17);
    l = a36 ^ dl3; h = a37 ^ dh3;
    b6 = (l << 21) | (h >>> 11); b7 = (h << 21) | (l >>> 11);
    l = a38 ^ dl4; h = a39 ^ dh4;
    b26 = (l << 8) | (h >>> 24); b27 = (h << 8) | (l >>> 24);
    l = a40 ^ dl0; h = a41 ^ dh0;
    b28 = (l << 18) | (h >>> 14); b29 = (h << 18) | (l >>> 14);
    l = a42 ^ dl1; h = a43 ^ dh1;
    b48 = (l << 2) | (h >>> 30); b49 = (h << 2) | (l >>> 30);
    l = a44 ^ dl2; h = a45 ^ dh2;
    b18 = (h << 29) | (l >>> 3); b19 = (l << 29) | (h >>> 3);
    l = a46 ^ dl3; h = a47 ^ dh3;
    b38 = (h << 24) | (l >>> 8); b39 = (l << 24) | (h >>> 8);
    l = a48 ^ dl4; h = a49 ^ dh4;
    b8 = (l << 14) | (h >>> 18); b9 = (h << 14) | (l >>> 18);
    // χ: each lane mixed with the next two of its row; ι: the round constant into lane 0.
    a0 = b0 ^ (~b2 & b4); a1 = b1 ^ (~b3 & b5);
    a2 = b2 ^ (~b4 & b6); a3 = b3 ^ (~b5 & b7);
    a4 = b4 ^ (~b6 & b8); a5 = b5 ^ (~b7 & b9);
    a6 = b6 ^ (~b8 & b0); a7 = b7 ^ (~b9 & b1);
    a8 = b8 ^ (~b0 & b2); a9 = b9 ^ (~b1 & b3);
    a10 = b10 ^ (~b12 & b14); a11 = b11 ^ (~b13 & b15);
    a12 = b12 ^ (~b14 & b16); a13 = b13 ^ (~b15 & b17);
    a14 = b14 ^ (~b16 & b18); a15 = b15 ^ (~b17 & b19);
    a16 = b16 ^ (~b18 & b10); a17 = b17 ^ (~b19 & b11);
    a18 = b18 ^ (~b10 & b12); a19 = b19 ^ (~b11 & b13);
    a20 = b20 ^ (~b22 & b24); a21 = b21 ^ (~b23 & b25);
    a22 = b22 ^ (~b24 & b26); a23 = b23 ^ (~b25 & b27);
    a24 = b24 ^ (~b26 & b28); a25 = b25 ^ (~b27 & b29);
    a26 = b26 ^ (~b28 & b20); a27 = b27 ^ (~b29 & b21);
    a28 = b28 ^ (~b20 & b22); a29 = b29 ^ (~b21 & b23);
    a30 = b30 ^ (~b32 & b34); a31 = b31 ^ (~b33 & b35);
    a32 = b32 ^ (~b34 & b36); a33 = b33 ^ (~b35 & b37);
    a34 = b34 ^ (~b36 & b38); a35 = b35 ^ (~b37 & b39);
    a36 = b36 ^ (~b38 & b30); a37 = b37 ^ (~b39 & b31);
    a38 = b38 ^ (~b30 & b32); a39 = b39 ^ (~b31 & b33);
    a40 = b40 ^ (~b42 & b44); a41 = b41 ^ (~b43 & b45);
    a42 = b42 ^ (~b44 & b46); a43 = b43 ^ (~b45 & b47);
    a44 = b44 ^ (~b46 & b48); a45 = b45 ^ (~b47 & b49);
    a46 = b46 ^ (~b48 & b40); a47 = b47 ^ (~b49 & b41);
    a48 = b48 ^ (~b40 & b42); a49 = b49 ^ (~b41 & b43);
    a0 ^= ROUND_LO[round];
    a1 ^= ROUND_HI[round];
  }
  // The digest's first 20 bytes are words 0 to 4; byte j's high nibble decides character 2j, its low one 2j + 1 (a
  // letter, a to f, is upper-cased by taking 32 off its code). The answer is made in one piece from the codes: a string
  // grown by `+=` is a rope of 42 parts, which every page that writes it out walks again.
  const digest = [a0, a1, a2, a3, a4];
  const codes = new Array<number>(42);
  codes[0] = 48; // 0
  codes[1] = 120; // x
  for (let j = 0; j < 20; j++) {
    const byte = digest[j >> 2] >>> ((j & 3) << 3);
    const high = address.charCodeAt(2 + 2 * j);
    const low = address.charCodeAt(3 + 2 * j);
    codes[2 + 2 * j] = byte & 0x80 && high > 0x60 ? high - 32 : high;
    codes[3 + 2 * j] = byte & 0x08 && low > 0x60 ? low - 32 : low;
  }
  return String.fromCharCode(...codes);
}
