// A small static file server for the release build, as GitHub Pages would serve it, plus the
// one CSP directive a page's <meta> cannot carry: `frame-ancestors *` (any site may embed a
// scene), sent as a header with every page, as any host that sets headers should.
//   node tests/browser/serve.mjs DIST [PORT] [BASE]   e.g. dist 8080 /kafka-lab/
// Also exported as startServer() for the browser tests.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".toml": "text/plain; charset=utf-8",
};

/** The header's policy: it only adds `frame-ancestors`; the page's <meta> policy still holds. */
export const FRAME_ANCESTORS = "frame-ancestors *";

async function fileFor(root, base, urlPath) {
  if (!urlPath.startsWith(base)) return null;
  let rel = decodeURIComponent(urlPath.slice(base.length));
  if (rel === "" || rel.endsWith("/")) rel += "index.html";
  const full = normalize(join(root, rel));
  if (!full.startsWith(root)) return null;
  try {
    return (await stat(full)).isFile() ? full : null;
  } catch {
    return null;
  }
}

/** Serves `dist` under `base` (which starts and ends with "/") on 127.0.0.1. `delayMs(path)`, for
 *  the tests, holds a file's answer back that long (a slow link for one file). */
export function startServer(dist, { port = 0, base = "/", delayMs = () => 0 } = {}) {
  const root = resolve(dist);
  const server = createServer(async (req, res) => {
    const urlPath = new URL(req.url, "http://127.0.0.1").pathname;
    const held = delayMs(urlPath);
    if (held > 0) await new Promise((later) => setTimeout(later, held));
    if (base !== "/" && urlPath === base.slice(0, -1)) {
      res.writeHead(301, { location: base });
      return res.end();
    }
    const file = await fileFor(root, base, urlPath);
    if (!file) {
      const notFound = await readFile(join(root, "404.html")).catch(() => "not found");
      res.writeHead(404, { "content-type": TYPES[".html"] });
      return res.end(notFound);
    }
    const headers = { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" };
    if (extname(file) === ".html") headers["content-security-policy"] = FRAME_ANCESTORS;
    res.writeHead(200, headers);
    res.end(await readFile(file));
  });
  return new Promise((done) => {
    server.listen(port, "127.0.0.1", () => {
      const url = `http://127.0.0.1:${server.address().port}${base}`;
      // Closing cuts the connections still open too (a browser keeps them alive), as a network
      // gone would, rather than wait for the browser to let go of them.
      const close = () => new Promise((closed) => {
        server.close(closed);
        server.closeAllConnections();
      });
      done({ url, close });
    });
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [dist = "dist", port = "8080", base = "/"] = process.argv.slice(2);
  const { url } = await startServer(dist, { port: Number(port), base });
  console.log(`Kafka Lab is served at ${url}  (Ctrl+C to stop)`);
}
