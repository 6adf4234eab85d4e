import { startTestApp, type TestApp, type TestAppOptions } from "./app";

/**
 * The test app of a suite that needs no chain: started with `options` in the suite's `before`, closed in its `after`,
 * and read by calling the returned function, as SuiteChain.forSuite gives a suite on a chain its state.
 */
export function appForSuite(options: TestAppOptions = {}): () => TestApp {
  let app: TestApp | undefined;
  before(async function () {
    app = await startTestApp(options);
  });
  after(async () => app?.close());
  return () => {
    if (app === undefined) throw new Error("the suite's app is read before its before hook started it");
    return app;
  };
}
