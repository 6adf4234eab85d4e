/** `value` as a tokenURI that carries its JSON document itself (a base64 data: URI), as fully on-chain tokens do. */
export const dataJson = (value: object) => `data:application/json;base64,${Buffer.from(JSON.stringify(value)).toString("base64")}`;
