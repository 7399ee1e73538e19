// Memory figures of a page through the DevTools protocol (no change to the app): the bytes of
// every WebAssembly.Memory the page holds (its wasm heap, which only grows) and the JS heap.
/** A CDP session on `page`, with the runtime enabled. */
export async function memoryProbe(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Runtime.enable");
  return cdp;
}

/** Total `buffer.byteLength` of the page's WebAssembly.Memory objects, in bytes. */
export async function wasmMemoryBytes(cdp) {
  const { result: proto } = await cdp.send("Runtime.evaluate", { expression: "WebAssembly.Memory.prototype" });
  const { objects } = await cdp.send("Runtime.queryObjects", { prototypeObjectId: proto.objectId });
  const { result } = await cdp.send("Runtime.callFunctionOn", {
    objectId: objects.objectId,
    functionDeclaration: "function () { return this.reduce((sum, m) => sum + m.buffer.byteLength, 0); }",
    returnByValue: true,
  });
  await cdp.send("Runtime.releaseObject", { objectId: objects.objectId });
  await cdp.send("Runtime.releaseObject", { objectId: proto.objectId });
  return result.value;
}

/** The JS heap in use, in bytes. */
export async function jsHeapBytes(cdp) {
  const { usedSize } = await cdp.send("Runtime.getHeapUsage");
  return usedSize;
}

export const MB = 1024 * 1024;
