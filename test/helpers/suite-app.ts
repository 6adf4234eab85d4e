import { startTestApp, type TestApp, type TestAppOptions } from "./app";
import { suiteFixture } from "./suite-fixture";

/**
 * The test app of a suite that needs no chain: started with `options` in the suite's `before`, closed in its `after`,
 * and read by calling the returned function, as SuiteChain.forSuite gives a suite on a chain its state.
 */
export function appForSuite(options: TestAppOptions = {}): () => TestApp {
  return suiteFixture({ open: () => startTestApp(options), state: async (app) => app, close: (app) => app.close() });
}
