import path from "node:path";
import { writeBenchmarksPage } from "../support/bench-report";

// `npm run bench:report`: writes docs/reference/benchmarks.md from the newest result of each suite in bench/results/.
console.log(`written ${path.relative(process.cwd(), writeBenchmarksPage())}`);
