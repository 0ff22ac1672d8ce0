/**
 * Routes `require('typescript')` to TypeScript 6 for this process.
 *
 * typescript-eslint runs on TypeScript's JavaScript compiler API. TypeScript 7, the project's
 * `typescript`, is the Go port of 6.0 and has no such API yet (typescript-eslint#10940), so
 * eslint.config.js loads this file before typescript-eslint; the project's `tsc` stays 7.
 * - TypeScript 6 sits in this local package so that npm installs it nested
 *   (tools/typescript-6/node_modules): a top-level alias would link its `tsc` over 7's in
 *   node_modules/.bin, depending on install order.
 * - package.json's `overrides` lets typescript-eslint's peer range (< 6.1) take the root's 7
 *   at install time; this redirect is what it gets at run time.
 * Once typescript-eslint runs on TypeScript 7: delete this folder, that override and the import.
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
