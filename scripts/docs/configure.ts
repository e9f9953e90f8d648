import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { configureDocs } from "./configure-docs.js";

// `npm run docs:configure`, from the repository root: rewrites docs/configure.md and schemas/.
for (const { path, text } of configureDocs()) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
