import type { FoliaDatabase } from '@/offline/db';
import { createElement, deleteElement, moveElement, updateElement } from '@/offline/elementEdits';

/** A small deterministic PRNG: a failing seed can be replayed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ModelElement {
  name: string;
  type: 'folder' | 'page';
  parent: string | null;
}

/**
 * Random edits (create, rename, move without cycles, delete with children) made through the
 * offline layer, and the project they must give: the same edits applied online.
 */
export class RandomEdits {
  /** By local id: temporary at first, the server's once replayed. */
  private readonly model = new Map<string, ModelElement>();
  private counter = 0;
  readonly pick = <T>(items: T[]): T | undefined => items[Math.floor(this.rand() * items.length)];

  constructor(
    private readonly db: FoliaDatabase,
    private readonly corpusId: string,
    private readonly label: string,
    readonly rand: () => number,
  ) {}

  /** Local ids change when a creation is replayed: follow them. */
  async refreshIds(): Promise<void> {
    for (const mapping of await this.db.idMap.toArray()) {
      const element = this.model.get(mapping.tempId);
      if (!element) continue;
      this.model.delete(mapping.tempId);
      this.model.set(mapping.serverId, element);
      for (const other of this.model.values()) {
        if (other.parent === mapping.tempId) other.parent = mapping.serverId;
      }
    }
  }

  private subtree(id: string): Set<string> {
    const found = new Set([id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const [other, element] of this.model) {
        if (element.parent && found.has(element.parent) && !found.has(other)) {
          found.add(other);
          grew = true;
        }
      }
    }
    return found;
  }

  /** One random edit; false when the roll asks for a sync instead (the caller's to make). */
  async step(): Promise<boolean> {
    await this.refreshIds();
    const folders = [...this.model].filter(([, e]) => e.type === 'folder').map(([id]) => id);
    const all = [...this.model.keys()];
    const roll = this.rand();
    if (roll < 0.35 || all.length < 3) {
      const parent = this.rand() < 0.2 ? null : (this.pick(folders) ?? null);
      const type = this.rand() < 0.5 ? 'folder' : 'page';
      const name = `${this.label}-n${++this.counter}`;
      const id = await createElement(this.db, { corpus: this.corpusId, parent, type, name });
      this.model.set(id, { name, type, parent });
    } else if (roll < 0.6) {
      const id = this.pick(all)!;
      const renamed = `${this.label}-n${++this.counter}`;
      await updateElement(this.db, id, { name: renamed });
      this.model.get(id)!.name = renamed;
    } else if (roll < 0.8) {
      const id = this.pick(all)!;
      const below = this.subtree(id);
      const destination = this.pick(folders.filter((f) => !below.has(f)));
      if (destination) {
        await moveElement(this.db, id, destination);
        this.model.get(id)!.parent = destination;
      }
    } else if (roll < 0.9) {
      const id = this.pick(all)!;
      await deleteElement(this.db, id);
      for (const gone of this.subtree(id)) this.model.delete(gone);
    } else {
      return false;
    }
    return true;
  }

  /** What the project must hold: "parent name > name (type)" lines, sorted. */
  expected(): string[] {
    return [...this.model.values()]
      .map((e) => `${e.parent ? this.model.get(e.parent)!.name : '-'} > ${e.name} (${e.type})`)
      .sort();
  }
}

/** The project as the API lists it, in the same lines. */
export async function describeProject(
  get: (path: string) => Promise<{ results: { id: string; name: string; type: string }[] }>,
  corpusId: string,
): Promise<string[]> {
  const lines: string[] = [];
  const walk = async (parentId: string | null, parentName: string) => {
    const list = await get(
      parentId
        ? `/api/v1/elements/${parentId}/children/?page_size=500`
        : `/api/v1/corpus/${corpusId}/elements/?top_level=true&page_size=500`,
    );
    for (const element of list.results) {
      lines.push(`${parentName} > ${element.name} (${element.type})`);
      await walk(element.id, element.name);
    }
  };
  await walk(null, '-');
  return lines.sort();
}
