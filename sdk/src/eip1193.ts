/** An EIP-1193 provider: what wallets inject, and what viem's and ethers' wallets can be wrapped as. */
export interface Eip1193Provider {
  request(args: { method: string; params?: readonly unknown[] | object }): Promise<unknown>;
}

/** `text` as the 0x-hex of its UTF-8 bytes, as `personal_sign` takes a message. */
function utf8Hex(text: string): string {
  return `0x${Array.from(new TextEncoder().encode(text), (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** EIP-191 `personal_sign` of `text`'s UTF-8 bytes by `address`, through the wallet. */
export async function personalSign(provider: Eip1193Provider, address: string, text: string): Promise<string> {
  return (await provider.request({ method: "personal_sign", params: [utf8Hex(text), address] })) as string;
}

/** The wallet's first account (`eth_requestAccounts`). */
export async function firstAccount(provider: Eip1193Provider): Promise<string> {
  const [address] = (await provider.request({ method: "eth_requestAccounts" })) as string[];
  if (!address) throw new Error("the wallet gave no account");
  return address;
}
