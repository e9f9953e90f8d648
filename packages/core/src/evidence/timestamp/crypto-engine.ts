import { CryptoEngine } from "pkijs";

/**
 * Node's WebCrypto as pkijs's engine, handed to every pkijs call that takes one. pkijs would pick
 * `globalThis.crypto` by itself on import, but its global engine is shared state any other import
 * of pkijs may replace; passing our own keeps these checks on the engine we chose.
 */
export const webCryptoEngine = new CryptoEngine({ name: "node-webcrypto", crypto: globalThis.crypto });
