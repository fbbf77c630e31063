// Intl.DateTimeFormat is costly to make (ICU data, about 0.1–0.2 ms each) and cheap to use: the cards of
// a feed, rendered on the server for every request and in the browser, take theirs from here, one per
// locale and set of options for the life of the process or tab.
const formats = new Map<string, Intl.DateTimeFormat>();

/** The shared DateTimeFormat for `locale` and `options` (options spelled the same way share one). */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}
