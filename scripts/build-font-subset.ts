// Cuts app/fonts/geist-subset.woff2 from the geist package's variable font (SIL Open Font License 1.1, no
// reserved font name; the licence is copied beside it): only the characters of lib/font-subset.ts, every
// weight axis kept, so the preloaded face is ~44 KB instead of 70 KB (docs/adr/0156). Run with
// `npm run fonts:build`; the output is committed, so builds need neither the tool nor the network.
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import subsetFont from "subset-font";
import { GEIST_SUBSET_RANGES } from "../lib/font-subset";

// The package exports only its entry points, not its directory: found where npm puts it.
const geist = path.join(process.cwd(), "node_modules", "geist");
const target = path.join(process.cwd(), "app", "fonts");

let text = "";
for (const [from, to] of GEIST_SUBSET_RANGES) for (let c = from; c <= to; c++) text += String.fromCodePoint(c);

const source = readFileSync(path.join(geist, "dist", "fonts", "geist-sans", "Geist-Variable.woff2"));
const subset = await subsetFont(source, text, { targetFormat: "woff2" });
writeFileSync(path.join(target, "geist-subset.woff2"), subset);
copyFileSync(path.join(geist, "LICENSE.txt"), path.join(target, "LICENSE-geist.txt"));
console.log(`geist-subset.woff2: ${subset.length} bytes (from ${source.length})`);
