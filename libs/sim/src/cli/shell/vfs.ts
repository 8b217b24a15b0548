// A host's small filesystem: paths -> text. Each simulated machine the learner can be on (the
// control-plane node they start on, the workers they ssh into) has one. Directories are implied by
// the files under them and by explicit mkdir.

export interface FileSystem {
  read(path: string): string | undefined;
  write(path: string, text: string): void;
  remove(path: string): boolean;
  exists(path: string): boolean;
  isDir(path: string): boolean;
  mkdir(path: string): void;
  /** direct children names of a directory, sorted */
  list(path: string): string[];
}

export function normalizePath(path: string, cwd: string, home: string): string {
  let p = path;
  if (p === '~' || p.startsWith('~/')) p = home + p.slice(1);
  if (!p.startsWith('/')) p = `${cwd}/${p}`;
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

export class MemoryFs implements FileSystem {
  private readonly files = new Map<string, string>();
  private readonly dirs = new Set<string>(['/']);

  constructor(initial: Record<string, string> = {}) {
    for (const [k, v] of Object.entries(initial)) this.write(k, v);
  }

  read(path: string): string | undefined {
    return this.files.get(path);
  }

  write(path: string, text: string): void {
    this.files.set(path, text);
    this.mkdirParents(path);
  }

  remove(path: string): boolean {
    if (this.files.delete(path)) return true;
    if (this.dirs.has(path) && this.list(path).length === 0 && path !== '/') {
      this.dirs.delete(path);
      return true;
    }
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
    this.mkdirParents(path);
  }

  list(path: string): string[] {
    const prefix = path === '/' ? '/' : `${path}/`;
    const names = new Set<string>();
    for (const k of [...this.files.keys(), ...this.dirs]) {
      if (k.startsWith(prefix) && k !== path) {
        const name = k.slice(prefix.length).split('/')[0];
        if (name) names.add(name);
      }
    }
    return [...names].sort();
  }

  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.files.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  private mkdirParents(path: string): void {
    const segs = path.split('/').filter(Boolean);
    for (let i = 1; i < segs.length; i++) this.dirs.add(`/${segs.slice(0, i).join('/')}`);
  }
}
