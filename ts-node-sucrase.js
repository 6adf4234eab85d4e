// ts-node's transpiler for every process that runs TypeScript here (npm start, the CLIs, Hardhat and the tests), named
// in tsconfig.json: Sucrase strips the types about twice as fast as TypeScript's own transpileModule, in plain
// JavaScript (no platform binary to install). It only strips: types are checked by tsc --noEmit (npm test,
// npm run typecheck), and the target's syntax (ES2022, which every supported Node runs) is left as written.
const { transform } = require("sucrase");

exports.create = () => ({
  transpile(input, { fileName }) {
    const { code, sourceMap } = transform(input, {
      transforms: ["typescript", "imports"],
      filePath: fileName,
      disableESTransforms: true,
      production: true,
      sourceMapOptions: { compiledFilename: fileName },
    });
    return { outputText: code, sourceMapText: JSON.stringify(sourceMap) };
  },
});
