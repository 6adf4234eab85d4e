import { getBytes, hashMessage } from "ethers";
import * as libsecp256k1 from "tiny-secp256k1";

/**
 * EIP-191 personal_sign with libsecp256k1, as a wallet would sign: the load generator shares the cores with the
 * service, so it signs at the cost of the fastest library.
 */
export function personalSign(privateKey: Uint8Array | string, message: string): string {
  const { signature, recoveryId } = libsecp256k1.signRecoverable(getBytes(hashMessage(message)), getBytes(privateKey));
  return `0x${Buffer.from(signature).toString("hex")}${(27 + recoveryId).toString(16)}`;
}
