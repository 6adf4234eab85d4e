import module from "node:module";

/**
 * Imported first by a process entry: Node keeps the bytecode it compiles for each module in a cache on disk
 * (`NODE_COMPILE_CACHE`, else a folder under the system's temporary directory) and reuses it at the next start, instead
 * of parsing and compiling ethers, pg, prom-client and the rest again. A cache that cannot be written costs nothing
 * but the saving.
 */
module.enableCompileCache?.();
