// Copies the 69 reaction images from the Twemoji SVG package (@twemoji/svg, graphics CC-BY 4.0 by
// Twitter and the jdecked/twemoji contributors) into public/post-reactions/<type>.svg and writes
// public/post-reactions/manifest.json: [{reactionType, image, title: {ru, en}}]. Run with
// `npm run reactions:build`; the output is committed, so builds need no network.
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { REACTIONS, reactionManifest } from "../lib/validation/reactions";

const require = createRequire(import.meta.url);
const source = path.dirname(require.resolve("@twemoji/svg/package.json"));
const target = path.join(process.cwd(), "public", "post-reactions");

/** Twemoji names a file by its code points without U+FE0F, unless the sequence holds a ZWJ. */
function twemojiFile(codePoints: readonly string[]): string {
  const zwj = codePoints.includes("200d");
  return `${codePoints.filter((c) => zwj || c !== "fe0f").join("-")}.svg`;
}

mkdirSync(target, { recursive: true });
for (const f of readdirSync(target)) if (f.endsWith(".svg")) rmSync(path.join(target, f));

for (const r of REACTIONS) {
  const file = path.join(source, twemojiFile(r.codePoints));
  if (!existsSync(file)) throw new Error(`no Twemoji image for ${r.id} (${file})`);
  copyFileSync(file, path.join(target, `${r.id}.svg`));
}
const manifest = reactionManifest();
copyFileSync(path.join(source, "license"), path.join(target, "LICENSE-twemoji.txt"));
writeFileSync(path.join(target, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
console.log(`${manifest.length} reactions written to ${path.relative(process.cwd(), target)}`);
