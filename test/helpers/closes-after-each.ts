/**
 * For what a test starts for itself (another app, a proxy, a browser context): the returned function registers one
 * and gives it back, and each test's registrations are closed when it ends, passed or failed, the last started first.
 * Called in a `describe`, where it adds the `afterEach` that closes them.
 */
export function closesAfterEach(): <T extends { close(): Promise<void> }>(item: T) => T {
  const items: Array<{ close(): Promise<void> }> = [];
  afterEach(async function () {
    for (const item of items.splice(0).reverse()) await item.close();
  });
  return (item) => {
    items.push(item);
    return item;
  };
}
