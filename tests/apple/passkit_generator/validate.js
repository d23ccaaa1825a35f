// Runs passkit-generator's own validation over unzipped .pkpass bundles and prints, as one
// JSON object, each bundle's problems (an empty list: the library found nothing to say).
//
//   node validate.js CERTS_DIR BUNDLE_DIR [BUNDLE_DIR ...]
//
// CERTS_DIR holds wwdr.pem, signer.pem and signer-key.pem (the library signs what it builds).
// Each bundle is checked three ways:
//   1. pass.json against the library's PassProps schema, strictly: every error, and unknown
//      keys too (the library's import strips those without a word);
//   2. the library's own path: `new PKPass(files, certificates)` imports pass.json, the
//      fields one by one, the images and the pass.strings files, then `getAsBuffer()` closes
//      and signs the pass; whatever it logs (console warnings, `debug` output on stderr) is a
//      problem, as is anything it throws;
//   3. each pass.strings file must reach the library whole (it parses UTF-8 only and drops a
//      file it cannot read in silence, so UTF-16 files, Apple's encoding, are handed over
//      as UTF-8 and every entry must come through).
"use strict";

// Turn on passkit-generator's `debug` logging, should this version use it, before loading it.
process.env.DEBUG = process.env.DEBUG || "passkit*";

const fs = require("node:fs");
const path = require("node:path");
const util = require("node:util");

const { PKPass } = require("passkit-generator");
// The schemas are not exported ("exports" names only the entry point); load the same module
// file the library uses, by its path.
const Schemas = require(path.join(path.dirname(require.resolve("passkit-generator")),
                                  "schemas", "index.js"));

const SKIPPED = new Set(["manifest.json", "signature"]);
const STRINGS = /^([^/]+)\.lproj\/pass\.strings$/;
const ENTRY = /^\s*".*"\s*=\s*".*";\s*$/;

function entries(text) {
  return text.split(/\r?\n/).filter((line) => ENTRY.test(line)).length;
}

function readBundle(dir) {
  const files = {};
  const walk = (folder, prefix) => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const name = prefix + entry.name;
      if (entry.isDirectory()) {
        walk(path.join(folder, entry.name), name + "/");
      } else if (!SKIPPED.has(name)) {
        files[name] = fs.readFileSync(path.join(folder, entry.name));
      }
    }
  };
  walk(dir, "");
  return files;
}

// A .strings file's text: UTF-16 by its byte order mark, else UTF-8.
function stringsText(buffer) {
  if (buffer[0] === 0xff && buffer[1] === 0xfe) {
    return buffer.subarray(2).toString("utf16le");
  }
  if (buffer[0] === 0xfe && buffer[1] === 0xff) {
    return Buffer.from(buffer.subarray(2)).swap16().toString("utf16le");
  }
  return buffer.toString("utf8");
}

// Runs `work` with console output and stderr writes collected as problems.
function capturing(problems, work) {
  const saved = {};
  for (const name of ["log", "info", "warn", "error", "debug", "trace"]) {
    saved[name] = console[name];
    console[name] = (...args) => problems.push(`console.${name}: ${util.format(...args)}`);
  }
  const write = process.stderr.write;
  process.stderr.write = (chunk) => {
    problems.push(`stderr: ${String(chunk).trimEnd()}`);
    return true;
  };
  try {
    work();
  } catch (error) {
    problems.push(`thrown: ${error && error.message ? error.message : String(error)}`);
  } finally {
    Object.assign(console, saved);
    process.stderr.write = write;
  }
}

function schemaProblems(text) {
  let doc;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    return [`pass.json is not JSON: ${error.message}`];
  }
  const { error } = Schemas.PassProps.validate(doc, { abortEarly: false });
  return error ? error.details.map((d) => `pass.json: ${d.message} (at ${d.path.join(".")})`)
    : [];
}

function check(dir, certificates) {
  const files = readBundle(dir);
  const problems = [];
  if (!files["pass.json"]) {
    return ["pass.json is missing"];
  }
  problems.push(...schemaProblems(files["pass.json"].toString("utf8")));
  const given = {};
  for (const [name, buffer] of Object.entries(files)) {
    const match = name.match(STRINGS);
    if (!match) {
      continue;
    }
    const text = stringsText(buffer);
    given[match[1]] = entries(text);
    files[name] = Buffer.from(text, "utf8");
  }
  capturing(problems, () => {
    const pass = new PKPass(files, certificates);
    pass.getAsBuffer();
    const built = pass.getAsRaw();
    for (const [language, count] of Object.entries(given)) {
      const file = built[`${language}.lproj/pass.strings`];
      const read = file ? entries(file.toString("utf8")) : 0;
      if (read !== count) {
        problems.push(`${language}.lproj/pass.strings: the library read ${read} of its ` +
                      `${count} entries`);
      }
    }
  });
  return problems;
}

function main(argv) {
  const [certsDir, ...bundles] = argv;
  if (!certsDir || bundles.length === 0) {
    process.stderr.write("usage: node validate.js CERTS_DIR BUNDLE_DIR [BUNDLE_DIR ...]\n");
    return 2;
  }
  const pem = (name) => fs.readFileSync(path.join(certsDir, name), "utf8");
  const certificates = { wwdr: pem("wwdr.pem"), signerCert: pem("signer.pem"),
                         signerKey: pem("signer-key.pem") };
  const report = {};
  for (const dir of bundles) {
    report[dir] = check(dir, certificates);
  }
  process.stdout.write(JSON.stringify(report) + "\n");
  return 0;
}

process.exitCode = main(process.argv.slice(2));
