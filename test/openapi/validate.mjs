// Validates the OpenAPI document a running sportsdb serves (SPORTSDB_URL) with a published
// OpenAPI 3.1 parser, and checks that the reference page's renderer is the pinned npm release.
import SwaggerParser from "@apidevtools/swagger-parser";
import { load as loadYAML } from "js-yaml";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

const base = process.env.SPORTSDB_URL;
if (!base) throw new Error("SPORTSDB_URL is not set");
const fail = (msg) => { console.error("FAIL " + msg); process.exitCode = 1; };

for (const [name, parse] of [["openapi.json", JSON.parse], ["openapi.yaml", loadYAML]]) {
  const res = await fetch(`${base}/${name}`);
  if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
  const api = await SwaggerParser.validate(parse(await res.text()));
  // Every operation: a batch of the records API and a webhook's enable are POST only.
  const ops = Object.values(api.paths).flatMap((p) => ["get", "put", "post", "patch", "delete"].map((m) => p[m]).filter(Boolean));
  console.log(`${name}: valid OpenAPI ${api.openapi}, ${Object.keys(api.paths).length} paths`);
  if (api.openapi !== "3.1.0") fail(`${name}: openapi ${api.openapi}`);
  ops.filter((op) => !op || !op["x-route"]).forEach((op) => fail(`${name}: an operation without x-route`));
  ops.filter((op) => op["x-route"].startsWith("v") && !op["x-caps"]).forEach((op) => fail(`${name}: ${op["x-route"]} has no x-caps`));
}

// The page's renderer is swagger-ui-dist exactly as the lockfile installs it.
const require = createRequire(import.meta.url);
const dist = path.dirname(require.resolve("swagger-ui-dist/package.json"));
const version = JSON.parse(await readFile(path.join(dist, "package.json"), "utf8")).version;
for (const file of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
  const served = Buffer.from(await (await fetch(`${base}/docs/${file}`)).arrayBuffer());
  const pinned = await readFile(path.join(dist, file));
  if (!served.equals(pinned)) fail(`/docs/${file} is not swagger-ui-dist ${version}'s`);
}
const page = await (await fetch(`${base}/docs`)).text();
if (/(src|href)="(https?:)?\/\//.test(page)) fail("/docs loads something from another host");
console.log(`/docs: swagger-ui-dist ${version}, nothing from another host`);
