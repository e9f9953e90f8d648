// The emulators live with the local mode, which runs them for `npm start`; tests use the same ones.
export * from "../../packages/local/src/emulators.js";
