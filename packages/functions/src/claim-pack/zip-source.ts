import { type BagFile, type BagSource, BagSourceError, byPath, readAll } from "@fleet-alerts/core/evidence";
import { type Entry, openPromise, type ZipFile } from "yauzl";

// The file-type bits of a Unix mode, as zip tools store it in the high half of the external attributes.
const FILE_TYPE_BITS = 0o170000;
const SYMBOLIC_LINK = 0o120000;

/**
 * A bag in a zip made by `evidence pack`: every entry under one top folder (the alert's, whatever
 * it is named), which is stripped. The entries are read from the zip's central directory when it
 * is opened, and each file is read as a stream from the zip when it is opened. yauzl refuses
 * absolute names and ".." itself; a zip that lists a name twice or holds a symbolic link is refused
 * here, since either could make the bag read differently from what an unzip tool would extract.
 */
export async function openZipBag(zipPath: string): Promise<BagSource> {
  const zip = await openPromise(zipPath, { lazyEntries: true, autoClose: false }).catch((error: Error) => {
    throw new BagSourceError(`${zipPath} is not a zip that can be read: ${error.message}`);
  });
  try {
    const entries = await bagEntries(zip, zipPath);
    const files: BagFile[] = [...entries]
      .map(([path, entry]) => ({ path, size: entry.uncompressedSize, modified: entry.getLastModDate() }))
      .sort(byPath);
    const open = (path: string) => {
      const entry = entries.get(path);
      if (!entry) throw new BagSourceError(`${path} is not a file of the bag in ${zipPath}`);
      return zip.openReadStreamPromise(entry);
    };
    return {
      location: zipPath,
      files,
      open: async (path) => open(path),
      read: async (path) => readAll(await open(path)),
      close: async () => zip.close(),
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

/** The files of the bag by their path from the bag root. */
async function bagEntries(zip: ZipFile, zipPath: string): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  let top: string | undefined;
  try {
    for await (const entry of zip.eachEntry()) {
      const [folder, ...rest] = entry.fileName.split("/");
      top ??= folder;
      if (rest.length === 0 || folder !== top)
        throw new BagSourceError(
          `${zipPath} must hold the bag under one top folder: ${entry.fileName} is not under ${top}/`,
        );
      if (entry.fileName.endsWith("/")) continue;
      if (((entry.externalFileAttributes >>> 16) & FILE_TYPE_BITS) === SYMBOLIC_LINK)
        throw new BagSourceError(`${zipPath}: ${entry.fileName} is a symbolic link, which a bag cannot hold`);
      const path = rest.join("/");
      if (entries.has(path)) throw new BagSourceError(`${zipPath} holds ${entry.fileName} twice`);
      entries.set(path, entry);
    }
  } catch (error) {
    if (error instanceof BagSourceError) throw error;
    throw new BagSourceError(`${zipPath} is not a zip that can be read: ${(error as Error).message}`);
  }
  return entries;
}
