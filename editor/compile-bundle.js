// Compile the bundled schema with Ajv 8 (draft 2020-12) in strict mode, union types
// allowed, as SchemaStore's checks and most JavaScript tools do. The keywords that
// only editors or holodeck-mt read are declared first (their names are the arguments).
//
//   node editor/compile-bundle.js schema/bundle/holodeck-mt.schema.json KEYWORD...
//
// Prints "compiled" and exits 0, or prints each strict-mode problem and exits 1.
"use strict";
const fs = require("fs");
const Ajv2020 = require("ajv/dist/2020").default;

const [bundle, ...keywords] = process.argv.slice(2);
const problems = [];
const ajv = new Ajv2020({
  strict: true,
  allowUnionTypes: true,
  logger: { log() {}, warn: (m) => problems.push(String(m)), error: (m) => problems.push(String(m)) },
});
for (const keyword of keywords) ajv.addKeyword(keyword);
try {
  ajv.compile(JSON.parse(fs.readFileSync(bundle, "utf8")));
} catch (error) {
  problems.push(String(error.message || error));
}
if (problems.length) {
  for (const problem of problems) console.log(problem);
  process.exit(1);
}
console.log("compiled");
