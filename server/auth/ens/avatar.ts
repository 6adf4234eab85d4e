import { holdsToken } from "../../chain/ens";
import type { Networks } from "../../chain/networks";
import { browserUrl, type Gateways, type TokenMetadataResolver } from "../../token-metadata";

/**
 * Longest picture URL put in an ID token: a `data:` avatar is the image itself, and an ID token travels in
 * redirects, headers and cookies.
 */
export const MAX_PICTURE_LENGTH = 8192;

export interface AvatarDeps {
  networks: Networks;
  /** The ENS network: an NFT avatar on its chain is read there (another chain: any configured network of it). */
  network: string;
  gateways: Gateways;
  /** The token metadata resolver (registered after the login plugin, so reached when a lookup runs). */
  tokens: () => TokenMetadataResolver;
}

/** ENSIP-12's NFT avatar: `eip155:<chain id>/erc721:<contract>/<id>` (or erc1155). */
const NFT = /^eip155:(\d{1,12})\/(erc721|erc1155):(0x[0-9a-f]{40})\/(\d{1,78})$/i;

/**
 * The `avatar` text record of `address`'s primary name as a URL a browser can load, or null: `https://` as it is,
 * `ipfs://` through the IPFS gateway, `data:image/…` as it is, an NFT the address holds as its metadata's image (read by
 * the token metadata resolver, with its address guard and size limits). Longer than MAX_PICTURE_LENGTH: null.
 * A node failure is thrown (nothing is learnt about the avatar).
 */
export async function avatarUrl(deps: AvatarDeps, address: string, avatar: string): Promise<string | null> {
  const url = await resolveAvatar(deps, address, avatar);
  return url !== null && url.length <= MAX_PICTURE_LENGTH ? url : null;
}

async function resolveAvatar(deps: AvatarDeps, address: string, avatar: string): Promise<string | null> {
  if (avatar.length > MAX_PICTURE_LENGTH) return null;
  if (/^https:\/\//i.test(avatar) || /^ipfs:\/\//i.test(avatar)) {
    const url = browserUrl(avatar, deps.gateways);
    return url !== null && url.startsWith("http") ? url : null;
  }
  if (/^data:image\//i.test(avatar)) return browserUrl(avatar, deps.gateways);
  const nft = NFT.exec(avatar);
  if (!nft) return null;
  const chainId = Number(nft[1]);
  const standard = nft[2].toLowerCase() as "erc721" | "erc1155";
  const contract = nft[3].toLowerCase();
  const id = BigInt(nft[4]);
  if (id >= 2n ** 256n) return null;
  const network = [deps.network, ...deps.networks.configured()].find((name) => deps.networks.info(name).chainId === chainId);
  if (network === undefined) return null;
  if (!(await holdsToken(deps.networks, network, standard, contract, id, address))) return null;
  return deps.tokens().image(network, contract, id, standard);
}
