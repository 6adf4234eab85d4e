// `npm run sdk-example -- <name> [arguments]`: runs examples/sdk/<name>.ts (docs/reference/sdk.md lists them).
import fs from "node:fs";
import path from "node:path";

const [name, ...rest] = process.argv.slice(2);
const examples = fs
  .readdirSync(__dirname)
  .filter((file) => file.endsWith(".ts") && file !== "run.ts")
  .map((file) => file.slice(0, -3));
if (!name || !examples.includes(name)) {
  console.error(`usage: npm run sdk-example -- <${examples.join("|")}> [arguments]`);
  process.exit(2);
}
process.argv = [process.argv[0], path.join(__dirname, `${name}.ts`), ...rest];
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only now, once argv reads as the example expects
require(`./${name}.ts`);
