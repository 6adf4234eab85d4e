/**
 * What a suite's tests share, made once in its `before` and closed in its `after`: `open` starts the resource (a
 * chain, a database, an app), `state` makes what the tests read from it, and `close` closes the resource, also when
 * `state` failed part way. A test reads the state by calling the returned function.
 */
export function suiteFixture<R, S>(parts: {
  open: () => Promise<R>;
  state: (resource: R) => Promise<S>;
  close: (resource: R) => Promise<void>;
}): () => S {
  let resource: { value: R } | undefined;
  let state: { value: S } | undefined;
  before(async function () {
    resource = { value: await parts.open() };
    state = { value: await parts.state(resource.value) };
  });
  after(async () => {
    if (resource) await parts.close(resource.value);
  });
  return () => {
    if (state === undefined) throw new Error("the suite's state is read before its before hook made it");
    return state.value;
  };
}
