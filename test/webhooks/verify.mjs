// Registers a webhook on a running sportsdb (SPORTSDB_URL, premium key SPORTSDB_KEY, serving
// with --webhook-allow-private), makes a change with `sportsdb import` (SPORTSDB_BIN on
// SPORTSDB_DB), and checks the delivery's signature with Standard Webhooks' published
// verifier: the delivery verifies, a changed body does not.
import { Webhook } from "standardwebhooks";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";

const { SPORTSDB_URL: base, SPORTSDB_KEY: key, SPORTSDB_BIN: bin, SPORTSDB_DB: db, TMP: tmp } = process.env;
if (!base || !key || !bin || !db || !tmp) throw new Error("SPORTSDB_URL, SPORTSDB_KEY, SPORTSDB_BIN, SPORTSDB_DB and TMP must be set");

const delivered = new Promise((resolve) => {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      res.writeHead(204).end();
      server.close();
      resolve({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
    });
  });
  server.listen(0, "127.0.0.1", () => register(server.address().port));
});

async function register(port) {
  const res = await fetch(`${base}/api/v2/json/webhooks`, {
    method: "POST",
    headers: { "X-API-KEY": key, "Content-Type": "application/json" },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, kinds: ["team"] }),
  });
  const answer = await res.json();
  if (res.status !== 201) throw new Error(`register: HTTP ${res.status} ${JSON.stringify(answer)}`);
  secret = answer.webhook.secret;
  const file = path.join(tmp, "webhook-team.json");
  writeFileSync(file, JSON.stringify({ teams: [{ idTeam: "9000001", strTeam: "Webhook FC", strSport: "Soccer" }] }));
  execFileSync(bin, ["import", file, "--db", db], { stdio: "inherit" });
}

let secret;
const timeout = setTimeout(() => { console.error("FAIL no delivery within 15 s"); process.exit(1); }, 15000);
const { headers, body } = await delivered;
clearTimeout(timeout);
const wh = new Webhook(secret);
const msg = wh.verify(body, headers);
if (msg.id !== "9000001" || msg.op !== "upsert") throw new Error(`delivered ${body}`);
let refused = false;
try { wh.verify(body.replace("Webhook FC", "Changed FC"), headers); } catch { refused = true; }
if (!refused) throw new Error("a changed body verifies");
console.log(`webhook delivery verified by standardwebhooks: ${headers["webhook-id"]}`);
