// Fake of Moddable's `file` module under Node, as its desktop-host (lin) implementation behaves
// (modules/files/file/lin/modFile.c): files in memory, shared by every import until clearFiles().
// new File(path) opens for reading ("file not found" when missing, :64-69); new File(path, true) opens
// for writing, creating the file (:64-67); read() reads from the position to the end ("read past end
// of file" beyond it, :90); write() writes at the position; Directory.create() of an existing directory
// is not an error (mkdir's EEXIST is ignored, :230-232).

const files = new Map<string, Uint8Array>();
const directories = new Set<string>();

export function clearFiles(): void {
  files.clear();
  directories.clear();
}

/** The paths of the files now stored (for tests). */
export function filePaths(): string[] {
  return [...files.keys()].sort();
}

export class File {
  position = 0;
  private path: string | null;

  constructor(path: string, write = false) {
    if (!files.has(path)) {
      if (!write) throw new Error('file not found');
      files.set(path, new Uint8Array(0));
    }
    this.path = path;
  }

  get length(): number {
    return this.bytes().length;
  }

  read(type: typeof ArrayBuffer | typeof String, count?: number): ArrayBuffer | string {
    const all = this.bytes();
    const n = count ?? all.length - this.position;
    if (this.position + n > all.length) throw new Error('read past end of file');
    const out = all.slice(this.position, this.position + n);
    this.position += n;
    return type === String ? Buffer.from(out).toString('utf8') : out.buffer;
  }

  write(value: ArrayBuffer | string): void {
    const add = typeof value === 'string' ? new Uint8Array(Buffer.from(value, 'utf8')) : new Uint8Array(value.slice(0));
    const old = this.bytes();
    const next = new Uint8Array(Math.max(old.length, this.position + add.length));
    next.set(old);
    next.set(add, this.position);
    files.set(this.path!, next);
    this.position += add.length;
  }

  close(): void {
    this.path = null;
  }

  static exists(path: string): boolean {
    return files.has(path) || directories.has(path);
  }

  static delete(path: string): boolean {
    return files.delete(path);
  }

  private bytes(): Uint8Array {
    if (this.path === null) throw new Error('closed');
    return files.get(this.path)!;
  }
}

export class Directory {
  static create(path: string): void {
    directories.add(path);
  }

  static delete(path: string): void {
    directories.delete(path);
  }
}
