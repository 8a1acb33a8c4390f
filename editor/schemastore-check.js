// Check a SchemaStore kit the way SchemaStore's own checks do: compile the schema in Ajv 8
// strict mode (the keywords editors read declared first), then every file under
// src/test/<name>/ must be valid and every file under src/negative_test/<name>/ invalid.
//
//   node editor/schemastore-check.js schemastore/src holodeck-mt KEYWORD...
//
// Prints one line per file ("valid NAME", "invalid NAME", "WRONG ...") and a summary;
// exits 0 when every verdict is the expected one, 1 otherwise.
"use strict";
const fs = require("fs");
const path = require("path");
const Ajv2020 = require("ajv/dist/2020").default;
const YAML = require("yaml");

const [src, name, ...keywords] = process.argv.slice(2);
const problems = [];
const ajv = new Ajv2020({
  strict: true,
  allowUnionTypes: true,
  allErrors: true,
  logger: { log() {}, warn: (m) => problems.push(String(m)), error: (m) => problems.push(String(m)) },
});
for (const keyword of keywords) ajv.addKeyword(keyword);
let validate;
try {
  validate = ajv.compile(JSON.parse(fs.readFileSync(path.join(src, "schemas", "json", `${name}.json`), "utf8")));
} catch (error) {
  problems.push(String(error.message || error));
}
if (problems.length) {
  for (const problem of problems) console.log(`WRONG schema: ${problem}`);
  process.exit(1);
}
let wrong = 0;
let seen = 0;
for (const [folder, expected] of [["test", true], ["negative_test", false]]) {
  const dir = path.join(src, folder, name);
  for (const file of fs.readdirSync(dir).sort()) {
    seen += 1;
    const data = YAML.parse(fs.readFileSync(path.join(dir, file), "utf8"));
    const valid = validate(data);
    if (valid === expected) {
      console.log(`${valid ? "valid" : "invalid"} ${folder}/${file}`);
    } else {
      wrong += 1;
      console.log(`WRONG ${folder}/${file}: expected ${expected ? "valid" : "invalid"}`);
    }
  }
}
console.log(`${seen} files, ${wrong} wrong`);
process.exit(wrong || !seen ? 1 : 0);
