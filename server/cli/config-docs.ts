import { writeFileSync } from "node:fs";
import path from "node:path";
import { generatedFiles } from "../config/docs";

/** `npm run config:docs`: rewrites docs/reference/configuration.md's settings tables and .env.example from server/config/settings.ts. */
const root = path.resolve(__dirname, "../..");
for (const [file, text] of Object.entries(generatedFiles(root))) {
  writeFileSync(path.join(root, file), text);
  console.log(`wrote ${file}`);
}
