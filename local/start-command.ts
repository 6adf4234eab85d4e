import packageJson from "../package.json";

/**
 * The arguments `npm start` gives node (package.json's start script, after its last `node`): the V8 flags the service
 * runs with, the TypeScript loader and the entry. The benchmarks and tests that start the service as `npm start` does
 * take them from here, so they run what users run.
 */
export const START_NODE_ARGS: string[] = packageJson.scripts.start.split(" && ").at(-1)!.split(" ").slice(1);
