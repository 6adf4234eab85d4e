import { IERC721__factory, type IERC721, type NFTConverter } from "../../typechain-types";

export type ConversionPlan =
  { ok: true; token: IERC721; from: "alice" | "bob"; to: "alice" | "bob"; id: bigint; counterpart: bigint } | { ok: false; reason: string };

/**
 * Checks everything a conversion needs before sending it, so the user reads why it cannot work instead of an opaque
 * revert: paused, reverse conversion off, the id not paired, the user not owning it, the counterpart not in stock.
 */
export async function explainConversion(converter: NFTConverter, user: string, side: "alice" | "bob", id: bigint): Promise<ConversionPlan> {
  const other = side === "alice" ? "bob" : "alice";
  const converterAddress = await converter.getAddress();
  const runner = converter.runner;
  const token = IERC721__factory.connect(side === "alice" ? await converter.alice() : await converter.bob(), runner);
  const counterToken = IERC721__factory.connect(side === "alice" ? await converter.bob() : await converter.alice(), runner);
  if (await converter.paused()) return { ok: false, reason: "the converter is paused" };
  if (side === "bob" && !(await converter.reverseConversionEnabled()))
    return { ok: false, reason: "Bob → Alice conversion is switched off" };
  const [paired, counterpart] = side === "alice" ? await converter.bobIdOf(id) : await converter.aliceIdOf(id);
  if (!paired) return { ok: false, reason: `${side} ${id} is not paired with any ${other} token` };
  const owner = await ownerOrNothing(token, id);
  if (owner?.toLowerCase() !== user.toLowerCase()) {
    return { ok: false, reason: owner ? `${side} ${id} belongs to ${owner}, not to you (${user})` : `${side} ${id} does not exist` };
  }
  if ((await ownerOrNothing(counterToken, counterpart))?.toLowerCase() !== converterAddress.toLowerCase()) {
    return { ok: false, reason: `the converter does not hold ${other} ${counterpart} (out of stock)` };
  }
  return { ok: true, token, from: side, to: other, id, counterpart };
}

async function ownerOrNothing(token: IERC721, id: bigint): Promise<string | undefined> {
  try {
    return await token.ownerOf(id);
  } catch {
    return undefined;
  }
}
