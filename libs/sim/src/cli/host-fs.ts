// A node's filesystem as the shell sees it: the NodeHost's `files` map (so edits persist with the
// lab's serialization), plus directories implied by paths.

import type { FileSystem } from './shell/vfs';

export class MapFs implements FileSystem {
  private readonly dirs = new Set<string>(['/', '/root', '/tmp']);

  constructor(private readonly files: Map<string, string>) {}

  read(path: string): string | undefined {
    return this.files.get(path);
  }

  write(path: string, text: string): void {
    this.files.set(path, text);
  }

  remove(path: string): boolean {
    if (this.files.delete(path)) return true;
    if (this.dirs.has(path) && this.list(path).length === 0) return this.dirs.delete(path);
    return false;
  }

  exists(path: string): boolean {
    return this.files.has(path) || this.isDir(path);
  }

  isDir(path: string): boolean {
    if (this.dirs.has(path)) return true;
    const prefix = path === '/' ? '/' : `${path}/`;
    for (const k of this.files.keys()) if (k.startsWith(prefix)) return true;
    return false;
  }

  mkdir(path: string): void {
    this.dirs.add(path);
  }

  list(path: string): string[] {
    const prefix = path === '/' ? '/' : `${path}/`;
    const names = new Set<string>();
    for (const k of [...this.files.keys(), ...this.dirs]) {
      if (k.startsWith(prefix) && k !== path) {
        const n = k.slice(prefix.length).split('/')[0];
        if (n) names.add(n);
      }
    }
    return [...names].sort();
  }
}
