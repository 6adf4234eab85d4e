import fs from "node:fs";
import path from "node:path";

/**
 * The production build's last step (`npm run build`, after tsc has written dist/): the files the service reads from
 * beside its modules at run time — the pages' scripts and styles, the migrations, the network registry — copied
 * from server/ to dist/server/ at the same places, since `__dirname` there is where the compiled modules are.
 */
const ROOT = path.resolve(__dirname, "..");
const FROM = path.join(ROOT, "server");
const TO = path.join(ROOT, "dist", "server");

const assets = fs
  .readdirSync(FROM, { recursive: true, encoding: "utf8" })
  .filter((file) => !file.endsWith(".ts") && fs.statSync(path.join(FROM, file)).isFile());
for (const file of assets) {
  fs.mkdirSync(path.dirname(path.join(TO, file)), { recursive: true });
  fs.copyFileSync(path.join(FROM, file), path.join(TO, file));
}
console.log(`copied ${assets.length} assets from server/ to dist/server/`);
