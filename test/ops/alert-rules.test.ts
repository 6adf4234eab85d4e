import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { expect } from "chai";
import { parse } from "yaml";
import { Metrics } from "../../server/metrics/metrics";
import { anchorsOf, ROOT } from "../helpers/docs";

const RULES_DIR = path.join(ROOT, "ops", "prometheus");

interface Rule {
  alert: string;
  expr: string;
  annotations?: Record<string, string>;
}

function rules(): Rule[] {
  const file = parse(fs.readFileSync(path.join(RULES_DIR, "alerts.yml"), "utf8")) as { groups: Array<{ rules: Rule[] }> };
  return file.groups.flatMap((group) => group.rules);
}

/** PromQL words that are not metric names: operators, modifiers and aggregations (these may be followed by `by`). */
const KEYWORDS = new Set(["and", "or", "unless", "bool", "offset", "on", "ignoring", "group_left", "group_right", "by", "without"]);
const AGGREGATIONS = new Set([
  "sum",
  "min",
  "max",
  "avg",
  "count",
  "group",
  "stddev",
  "stdvar",
  "topk",
  "bottomk",
  "quantile",
  "count_values",
]);
/** Keywords followed by a parenthesized list of label names, not of metrics. */
const LABEL_LISTS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right"]);

/** The metric selectors of a PromQL expression: each metric name and the label names its matchers use. */
function selectorsOf(expr: string): Array<{ name: string; labels: string[] }> {
  const found: Array<{ name: string; labels: string[] }> = [];
  const token = /"(?:[^"\\]|\\.)*"|\d[\w.]*|\[[^\]]*\]|([a-zA-Z_:][\w:]*)(\s*\{[^}]*\})?|\{[^}]*\}/g;
  let match;
  while ((match = token.exec(expr))) {
    const [, name, matchers] = match;
    if (!name) continue;
    const rest = expr.slice(token.lastIndex);
    if (LABEL_LISTS.has(name)) {
      const list = /^\s*\([^)]*\)/.exec(rest);
      if (list) token.lastIndex += list[0].length;
      continue;
    }
    if (KEYWORDS.has(name) || AGGREGATIONS.has(name) || /^\s*\(/.test(rest)) continue;
    const labels = [...(matchers ?? "").matchAll(/([a-zA-Z_]\w*)\s*(?:=~|!~|!=|=)/g)].map(([, label]) => label);
    found.push({ name, labels });
  }
  return found;
}

/** Sample names a metric family of the text format yields (`# TYPE name type`), with its type's suffixes. */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === "histogram") for (const suffix of ["_bucket", "_sum", "_count"]) names.add(name + suffix);
    if (type === "summary") for (const suffix of ["_sum", "_count"]) names.add(name + suffix);
  }
  return names;
}

function promtool(...args: string[]) {
  return spawnSync("promtool", args, { cwd: RULES_DIR, encoding: "utf8" });
}

describe("Prometheus alert rules (ops/prometheus)", function () {
  it("reads metric names and their matchers' labels out of PromQL", function () {
    expect(
      selectorsOf(
        'sum by (network) (rate(rpc_calls_total{outcome=~"a|b", network!="x"}[5m])) / on (network) group_left () ' +
          'max without (instance) (up{job="j"}) > 0 and count(foo_bucket) unless bar offset 5m',
      ),
    ).to.deep.equal([
      { name: "rpc_calls_total", labels: ["outcome", "network"] },
      { name: "up", labels: ["job"] },
      { name: "foo_bucket", labels: [] },
      { name: "bar", labels: [] },
    ]);
  });

  describe("against the service's own metrics", function () {
    // The registry as the metrics plugin fills it: every figure of the Metrics class, and the pool's gauges it adds
    // once the database is open (test/server/metrics checks that a running service serves them all).
    const metrics = new Metrics();
    metrics.databasePool(
      () => "postgres",
      () => ({ total: 1, idle: 1, waiting: 0, max: 10 }),
    );

    it("use only metrics the service exports (and Prometheus' own up), with labels those metrics carry", async function () {
      const exported = exportedNames(await metrics.registry.metrics());
      const registry = metrics.registry;
      const unknown: string[] = [];
      for (const rule of rules()) {
        const selectors = selectorsOf(rule.expr);
        expect(selectors.length, `${rule.alert} reads no metric`).to.be.greaterThan(0);
        for (const { name, labels } of selectors) {
          if (name === "up") continue;
          if (!exported.has(name)) {
            unknown.push(`${rule.alert}: ${name}`);
            continue;
          }
          const family = registry.getSingleMetric(name) ?? registry.getSingleMetric(name.replace(/_(bucket|sum|count)$/, ""));
          const carried = [...((family as { labelNames?: string[] } | undefined)?.labelNames ?? []), "instance", "job", "le"];
          for (const label of labels) if (!carried.includes(label)) unknown.push(`${rule.alert}: ${name}{${label}}`);
        }
      }
      expect(unknown, "metrics or labels the service does not export").to.deep.equal([]);
    });
  });

  it("link each alert to a runbook section that exists", function () {
    const anchors = anchorsOf(path.join("docs", "operations", "runbooks.md"));
    for (const rule of rules()) {
      const link = /docs\/operations\/runbooks\.md#([\w-]+)/.exec(rule.annotations?.description ?? "");
      expect(link, `${rule.alert} names no runbook`).to.not.equal(null);
      expect([...anchors], `${rule.alert}: docs/operations/runbooks.md#${link![1]}`).to.include(link![1]);
    }
  });

  describe("with promtool", function () {
    before(function () {
      if (promtool("--version").error) {
        console.log(
          "    promtool is not on PATH: the rules' syntax and unit tests are not checked here (CI installs it: apt-get install prometheus, in .ci/run)",
        );
        this.skip();
      }
    });

    it("pass promtool check rules", function () {
      const result = promtool("check", "rules", "alerts.yml");
      expect(result.status, result.stdout + result.stderr).to.equal(0);
      expect(result.stdout).to.match(new RegExp(`SUCCESS: ${rules().length} rules found`));
    });

    it("pass their unit tests (promtool test rules alerts.test.yml), which cover every alert", function () {
      const result = promtool("test", "rules", "alerts.test.yml");
      expect(result.status, result.stdout + result.stderr).to.equal(0);
      const tests = parse(fs.readFileSync(path.join(RULES_DIR, "alerts.test.yml"), "utf8")) as {
        tests: Array<{ alert_rule_test?: Array<{ alertname: string; exp_alerts: unknown[] }> }>;
      };
      const fired = new Set(
        tests.tests.flatMap((test) => (test.alert_rule_test ?? []).filter((a) => a.exp_alerts.length > 0)).map((a) => a.alertname),
      );
      expect(
        rules()
          .map((rule) => rule.alert)
          .filter((alert) => !fired.has(alert)),
        "alerts no unit test fires",
      ).to.deep.equal([]);
    });
  });
});
