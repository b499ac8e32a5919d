#!/usr/bin/env node
// Derives the facts the tests need from the service's public OpenAPI description into
// test/fixtures/reference/api-description.json: per operation its parameters (name, place,
// type, required) and its responses (schemas and examples), the component schemas, responses
// and parameters they point to, and nothing else. Prose (descriptions, summaries, curl notes)
// is dropped; names, types, enums, required lists, nullability and examples are kept, with
// `$ref` pointers as they are, so the fixture reads like the original document.
//
// Usage: node scripts/derive-reference.mjs [PATH/TO/zulip-openapi.yaml]
// Without a path it looks for the reference beside the repository (the team's shared folder)
// and says so when there is none: the derived fixture is committed, so tests never need it.
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const source = process.argv[2] ?? join(root, "..", "shared", "reference", "zulip-openapi.yaml");
const outDir = join(root, "test", "fixtures", "reference");
const outFile = join(outDir, "api-description.json");

if (!existsSync(source)) {
  console.error(`derive-reference: ${source} not found; pass the path of zulip-openapi.yaml`);
  process.exit(2);
}

const text = readFileSync(source, "utf8");
const doc = parse(text, { maxAliasCount: -1 });

/** Keys that carry prose or presentation only. */
const PROSE = new Set(["description", "summary", "tags", "operationId", "x-curl-examples-parameters", "x-parameter-description", "x-draft-description", "title", "externalDocs"]);

/**
 * Copies a schema-like node without prose. Under `properties`, `examples` and similar maps the
 * keys are names, not keywords, so they are kept whatever they are; inside an `example` or an
 * example's `value` everything is data and is kept whole.
 */
function strip(node, under) {
  if (Array.isArray(node)) return node.map((x) => strip(x, under));
  if (node === null || typeof node !== "object") return node;
  const out = {};
  for (const [k, v] of Object.entries(node)) {
    const keyIsName = under === "properties" || under === "map";
    if (!keyIsName && PROSE.has(k)) continue;
    if (!keyIsName && (k === "example" || k === "value" || k === "default")) {
      out[k] = structuredClone(v);
      continue;
    }
    const childUnder =
      !keyIsName && (k === "properties" || k === "examples" || k === "responses" || k === "content" || k === "encoding" || k === "schemas" || k === "parameters" && !Array.isArray(v))
        ? k === "properties"
          ? "properties"
          : "map"
        : undefined;
    out[k] = strip(v, childUnder);
  }
  return out;
}

const METHODS = ["get", "post", "put", "patch", "delete"];
const paths = {};
for (const [path, item] of Object.entries(doc.paths)) {
  const ops = {};
  for (const m of METHODS) {
    const op = item[m];
    if (!op) continue;
    ops[m] = strip({ parameters: op.parameters, requestBody: op.requestBody, responses: op.responses, deprecated: op.deprecated });
  }
  if (item.parameters) ops.parameters = strip(item.parameters);
  if (Object.keys(ops).length) paths[path] = ops;
}

const components = {};
for (const part of ["schemas", "responses", "parameters", "requestBodies"]) {
  if (doc.components?.[part]) components[part] = strip(doc.components[part], "map");
}

const derived = {
  source: {
    file: "zerver/openapi/zulip.yaml of the zulip/zulip repository",
    version: doc.info?.version,
    sha256: createHash("sha256").update(text).digest("hex"),
  },
  paths,
  components,
};
mkdirSync(outDir, { recursive: true });
const json = JSON.stringify(derived);
writeFileSync(outFile, json + "\n");
console.log(`derive-reference: wrote ${outFile} (${(json.length / 1024).toFixed(0)} KB, ${Object.keys(paths).length} paths)`);
