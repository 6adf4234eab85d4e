import { readFileSync } from "node:fs";
import type { AxeResults } from "axe-core";
import type { Page } from "playwright-core";

// Runs in the page (tsconfig has no DOM library): axe-core's global once its source ran there.
declare const axe: { run(options: { resultTypes: string[] }): Promise<AxeResults> };

/** axe-core's browser build, read once. */
let source: string | undefined;

/**
 * The accessibility rules `page` breaks as axe-core sees it now: one line per rule and element, empty when none.
 * axe-core runs through the DevTools protocol (page.evaluate), which the page's CSP does not govern: the page is
 * tested under its real policy, which would refuse an added inline script.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  source ??= readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(source);
  const results = await page.evaluate(() => axe.run({ resultTypes: ["violations"] }));
  return results.violations.flatMap((rule) =>
    rule.nodes.map((node) => `${rule.id} (${rule.impact}): ${node.target.join(" ")}: ${node.failureSummary?.replace(/\s+/g, " ")}`),
  );
}
