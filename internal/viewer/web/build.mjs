// Builds ../view.html, the one self-contained page of the nl2sql result view
// (go generate ./viewer runs it after npm ci): src/view.html with src/view.css
// and Chart.js's UMD build plus src/view.js inlined. The page's
// Content-Security-Policy allows exactly these inline blocks by their sha256
// and nothing from the network. The output depends only on the files read
// here (chart.js pinned by package-lock.json), so the build is reproducible:
// running it again on the same inputs writes the same bytes.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const read = (p) => readFileSync(join(here, p), "utf8");

// the source map comment would make devtools fetch a file the page does not have
const chart = read("node_modules/chart.js/dist/chart.umd.min.js").replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, "\n");
const chartVersion = JSON.parse(read("node_modules/chart.js/package.json")).version;
const script = `${chart}\n${read("src/view.js")}`;
const style = read("src/view.css");
if (script.includes("</script") || style.includes("</style")) {
  throw new Error("an inlined block would close its own tag");
}
const hash = (s) => `'sha256-${createHash("sha256").update(s, "utf8").digest("base64")}'`;
const csp = [
  "default-src 'none'",
  `script-src ${hash(script)}`,
  `style-src ${hash(style)}`,
  "img-src data:",
  "font-src data:",
  "connect-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const page = read("src/view.html")
  .replace("{{CSP}}", csp)
  .replace("{{CHARTJS_VERSION}}", chartVersion)
  .replace("{{STYLE}}", () => style)
  .replace("{{SCRIPT}}", () => script);
// an output path argument builds elsewhere (viewer's test compares the two)
const out = process.argv[2] || join(here, "..", "view.html");
writeFileSync(out, page);
console.log(`${out}: ${Buffer.byteLength(page)} bytes (chart.js ${chartVersion})`);
