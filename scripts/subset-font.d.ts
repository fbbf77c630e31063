// subset-font ships no types: the one call scripts/build-font-subset.ts and its test make.
declare module "subset-font" {
  export default function subsetFont(
    font: Buffer,
    text: string,
    options?: { targetFormat?: "woff2" | "woff" | "sfnt" | "truetype"; preserveNameIds?: number[]; variationAxes?: Record<string, number | { min: number; max: number }> },
  ): Promise<Buffer>;
}
