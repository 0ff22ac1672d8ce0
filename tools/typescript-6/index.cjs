/**
 * Routes `require('typescript')` to TypeScript 6 for this process.
 *
 * typescript-eslint runs on TypeScript's JavaScript compiler API. TypeScript 7, the project's
 * `typescript`, is the Go port and has no such API yet (typescript-eslint#10940), so
 * eslint.config.js loads this file before typescript-eslint. The project's `tsc` stays 7.
 * TypeScript 6.0 is the release 7.0 was ported from, so the types the rules see are the same.
 */
const Module = require('node:module');
const path = require('node:path');

const typescript6 = path.dirname(require.resolve('typescript/package.json', { paths: [__dirname] }));
const resolveFilename = Module._resolveFilename;

Module._resolveFilename = function (request, ...rest) {
  if (request === 'typescript' || request.startsWith('typescript/')) {
    request = typescript6 + request.slice('typescript'.length);
  }
  return resolveFilename.call(this, request, ...rest);
};
