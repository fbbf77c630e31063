// Reads a ZIP back (yauzl, the reader from the author of the writer we use): the data export's tests.
import yauzl from "yauzl";

/** Every entry of a ZIP, by name, in the archive's order. */
export function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out = new Map<string, Buffer>();
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, async (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          for await (const c of stream) chunks.push(c as Buffer);
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
      zip.on("end", () => resolve(out));
      zip.on("error", reject);
      zip.readEntry();
    });
  });
}
