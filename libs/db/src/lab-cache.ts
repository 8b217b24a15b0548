// Restored labs kept in memory, keyed by (labId, revision). A writer that finds the revision it
// locked in the database here skips parsing the lab again; any other writer (another process)
// bumps the revision, so a stale instance can never be used. Least recently used labs fall out.

export class LabCache<L> {
  private readonly entries = new Map<string, { revision: number; lab: L }>();

  constructor(private readonly capacity: number) {}

  /** The instance at exactly this revision, or undefined (and a stale one is dropped). */
  get(labId: string, revision: number): L | undefined {
    const entry = this.entries.get(labId);
    if (!entry) return undefined;
    if (entry.revision !== revision) {
      this.entries.delete(labId);
      return undefined;
    }
    // Map keeps insertion order: re-inserting marks it most recently used.
    this.entries.delete(labId);
    this.entries.set(labId, entry);
    return entry.lab;
  }

  /** Removes and returns the instance with the revision it was cached at, whatever that is. */
  take(labId: string): { revision: number; lab: L } | undefined {
    const entry = this.entries.get(labId);
    this.entries.delete(labId);
    return entry;
  }

  set(labId: string, revision: number, lab: L): void {
    this.entries.delete(labId);
    this.entries.set(labId, { revision, lab });
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  delete(labId: string): void {
    this.entries.delete(labId);
  }

  get size(): number {
    return this.entries.size;
  }
}
