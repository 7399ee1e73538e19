// Kafka Lab's service worker: a scene visited once reopens without a network (a classroom's
// Wi-Fi drops). scripts/site.mjs writes it to the site's root with BUILD replaced by a hash of
// every other file of the build, so a new deploy keeps its files in a cache of its own and drops
// the last one's. Nothing is fetched ahead: the cache holds only what the visited pages fetched.
//   assets/…   names carry a hash of their bytes and never change: from the cache, else the
//              network; kept only when the bytes match the name.
//   the rest   pages, locale files, the icon: the network first, as without a worker, each fresh
//              copy kept; the kept one only when the network fails. A page is the same HTML for
//              every query (`?scene=log&…`), so it is kept once, without its query.
// The pages register it once loaded and started (scripts/site.mjs, `offline`); the files a page
// fetched before the worker took control arrive in a message (see `remember`).
const BUILD = "%BUILD%";
const SCOPE = self.registration.scope;
// Several sites may share an origin (user.github.io/a/, user.github.io/b/): the scope is part of the name.
const FAMILY = `kafka-lab ${SCOPE} `;
const CACHE = FAMILY + BUILD;
const ASSETS = `${SCOPE}assets/`;
// An asset's name ends in the SHA-256 of its bytes (base64url) and its kind (scripts/site.mjs, `NAMED`).
const HASHED = /-([\w-]{43})(?:_bg\.wasm(?:\.gzip)?|\.js|\.css)$/;

self.addEventListener("install", () => self.skipWaiting());

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(FAMILY) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(SCOPE) || request.headers.has("range")) return;
  event.respondWith(request.url.startsWith(ASSETS) ? cacheFirst(event) : networkFirst(event));
});

// A page tells the worker that just took control of it what it fetched before: its address and its
// files (Resource Timing's names). Those not kept yet are fetched again, which the browser's
// HTTP cache usually answers; the page is stored last, so once it is there, so are its files.
self.addEventListener("message", (event) => {
  const { page, files } = event.data ?? {};
  if (typeof page !== "string" || !Array.isArray(files)) return;
  event.waitUntil(remember(page, files));
});

/** The key a page is kept under: its address without the query or fragment. */
function pageKey(url) {
  const bare = new URL(url);
  bare.search = "";
  bare.hash = "";
  return bare.href;
}

/** Whether a response is worth keeping: whole, from this site, and an asset's bytes the ones its name names. */
async function whole(url, response) {
  if (response.status !== 200 || response.type !== "basic") return false;
  if (!url.startsWith(ASSETS)) return true;
  const named = HASHED.exec(new URL(url).pathname);
  if (!named) return false;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await response.clone().arrayBuffer()));
  const base64url = btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  return base64url === named[1];
}

async function keep(key, response) {
  if (await whole(key, response)) await (await caches.open(CACHE)).put(key, response);
}

/** What the worker is keeping now, of the files fetched through it: a page is stored after them. */
const keeping = new Set();

function keepLater(event, key, response) {
  const kept = keep(key, response).finally(() => keeping.delete(kept));
  keeping.add(kept);
  event.waitUntil(kept);
}

async function cacheFirst(event) {
  const kept = await caches.match(event.request.url, { cacheName: CACHE });
  if (kept) return kept;
  const response = await fetch(event.request);
  keepLater(event, event.request.url, response.clone());
  return response;
}

async function networkFirst(event) {
  const { request } = event;
  const key = request.mode === "navigate" ? pageKey(request.url) : request.url;
  try {
    const response = await fetch(request);
    keepLater(event, key, response.clone());
    return response;
  } catch (offline) {
    const kept = await caches.match(key, { cacheName: CACHE, ignoreSearch: request.mode === "navigate" });
    if (kept) return kept;
    throw offline;
  }
}

async function remember(page, files) {
  const cache = await caches.open(CACHE);
  const fetchAndKeep = async (url) => {
    if (!url.startsWith(SCOPE) || (await cache.match(url))) return;
    const response = await fetch(url).catch(() => null);
    if (response) await keep(url, response);
  };
  await Promise.all([...new Set(files)].filter((url) => typeof url === "string").map(fetchAndKeep));
  await Promise.allSettled([...keeping]);
  await fetchAndKeep(pageKey(page));
}
