/**
 * At most `size` edits in flight; a freed place goes to the earliest edit waiting for one, so
 * the outbox drains in about the order it was written.
 */
export class ReplaySlots {
  private free: number;
  private readonly waiting: { seq: number; go: () => void }[] = [];

  constructor(size: number) {
    this.free = Math.max(1, size);
  }

  acquire(seq: number): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise((go) => {
      this.waiting.push({ seq, go });
    });
  }

  release(): void {
    if (this.waiting.length === 0) {
      this.free += 1;
      return;
    }
    let first = 0;
    for (let i = 1; i < this.waiting.length; i += 1) {
      if (this.waiting[i]!.seq < this.waiting[first]!.seq) first = i;
    }
    const [next] = this.waiting.splice(first, 1);
    next!.go();
  }
}
