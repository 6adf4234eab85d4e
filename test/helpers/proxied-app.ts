import { startTestApp, type TestApp, type TestAppOptions } from "./app";
import { startFaultProxy, type FaultPlan, type FaultProxy } from "./fault-proxy";

/** The service reading a node through a fault proxy the test steers (`proxy.plan`). */
export interface ProxiedApp {
  t: TestApp;
  proxy: FaultProxy;
  /** Closes the app, then the proxy. */
  close(): Promise<void>;
}

/**
 * The service whose localhost provider is a fault proxy (`proxy`: its seed and first plan) in front of the node at
 * `target`, with the app's other options and settings.
 */
export async function startProxiedApp(
  target: string,
  { proxy: proxyOptions, ...options }: TestAppOptions & { proxy?: { seed?: number; plan?: FaultPlan } } = {},
): Promise<ProxiedApp> {
  const proxy = await startFaultProxy(target, proxyOptions);
  try {
    const t = await startTestApp({ ...options, env: { RPC_URL_LOCALHOST: proxy.url, ...options.env } });
    return {
      t,
      proxy,
      async close() {
        await t.close();
        await proxy.close();
      },
    };
  } catch (error) {
    await proxy.close();
    throw error;
  }
}
