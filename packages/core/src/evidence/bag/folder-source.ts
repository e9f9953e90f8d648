import { createReadStream, type Dirent } from "node:fs";
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { type BagFile, type BagSource, BagSourceError, byPath, listedFile } from "./source.js";

/**
 * A bag in a folder. A symbolic link is followed only to a file inside the bag: one that leads out
 * would let a bag's manifest vouch for a file that is not in it, and a link to a folder could loop.
 */
export async function openFolderBag(folder: string): Promise<BagSource> {
  const root = await realpath(folder).catch(() => {
    throw new BagSourceError(`${folder}: no such folder`);
  });
  if (!(await stat(root)).isDirectory()) throw new BagSourceError(`${folder} is not a folder`);
  const files: BagFile[] = [];
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isDirectory()) files.push(await fileOf(root, entry));
  }
  files.sort(byPath);
  const source: BagSource = {
    location: folder,
    files,
    open: async (path) => createReadStream(join(root, listedFile(source, path).path)),
    read: async (path) => readFile(join(root, listedFile(source, path).path)),
    close: async () => undefined,
  };
  return source;
}

async function fileOf(root: string, entry: Dirent): Promise<BagFile> {
  const full = join(entry.parentPath, entry.name);
  const path = relative(root, full).split(sep).join("/");
  const target = entry.isSymbolicLink() ? await linkTarget(root, full, path) : full;
  const stats = await stat(target);
  if (!stats.isFile())
    throw new BagSourceError(`${path} is not a regular file (links to folders are not followed)`);
  return { path, size: stats.size, modified: stats.mtime };
}

async function linkTarget(root: string, link: string, path: string): Promise<string> {
  const target = await realpath(link).catch(() => {
    throw new BagSourceError(`${path} is a symbolic link to nothing`);
  });
  if (!target.startsWith(root + sep))
    throw new BagSourceError(`${path} is a symbolic link out of the bag (to ${target}): refused`);
  return target;
}
