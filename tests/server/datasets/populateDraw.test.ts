import { describe, expect, it } from 'vitest';
import {
  below,
  drawPositions,
  planSplit,
  seededGenerator,
  setQuotas,
} from '../../../server/services/datasets/draw';

const shares = (entries: [string, number][]) =>
  entries.map(([name, fraction]) => ({ name, fraction }));

describe('the seeded draw behind populate', () => {
  it('gives the same numbers for a seed, other numbers for another seed', () => {
    const take = (seed: number) => Array.from({ length: 8 }, seededGenerator(seed));
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
    // Both halves of a large seed count, and negative seeds work.
    expect(take(2 ** 40 + 1)).not.toEqual(take(1));
    expect(take(-1)).not.toEqual(take(1));
    expect(take(-1)).toEqual(take(-1));
    for (const value of take(7)) expect(value >>> 0).toBe(value);
  });

  it('draws k distinct positions below n, the same whether kept densely or sparsely', () => {
    const drawn = drawPositions(1000, 100, seededGenerator(5));
    expect(drawn).toHaveLength(100);
    expect(new Set(drawn).size).toBe(100);
    expect(Math.max(...drawn)).toBeLessThan(1000);
    // 100 × 8 < 1000 keeps the shuffle sparse; 125 × 8 = 1000 keeps it dense: the first 100
    // positions drawn are the same either way.
    const dense = drawPositions(1000, 125, seededGenerator(5));
    expect([...dense.slice(0, 100)]).toEqual([...drawn]);
    expect(drawPositions(10, 50, seededGenerator(1))).toHaveLength(10);
    expect(drawPositions(0, 5, seededGenerator(1))).toHaveLength(0);
  });

  it('draws every position about as often', () => {
    const hits = new Array<number>(10).fill(0);
    const next = seededGenerator(11);
    for (let run = 0; run < 20_000; run += 1) {
      for (const position of drawPositions(10, 3, next)) hits[position]! += 1;
    }
    // 6,000 expected each; a fair draw stays well within ±5 %.
    for (const count of hits) expect(Math.abs(count - 6000)).toBeLessThan(300);
    const values = Array.from({ length: 10_000 }, () => below(next, 3));
    expect(new Set(values)).toEqual(new Set([0, 1, 2]));
  });

  it('gives each set floor(count × fraction), the rest to the last set by name with a ratio', () => {
    expect(
      setQuotas(
        10,
        shares([
          ['dev', 0.25],
          ['test', 0.25],
          ['train', 0.5],
        ]),
      ),
    ).toEqual([2, 2, 6]);
    expect(
      setQuotas(
        5,
        shares([
          ['dev', 0.5],
          ['test', 0.5],
          ['train', 0],
        ]),
      ),
    ).toEqual([2, 3, 0]);
    expect(
      setQuotas(
        10,
        shares([
          ['a', 0.7],
          ['b', 0.3],
        ]),
      ),
    ).toEqual([7, 3]);
    expect(setQuotas(0, shares([['a', 1]]))).toEqual([0]);
    // Fractions a little above 1 never hand out more than count.
    expect(
      setQuotas(
        3,
        shares([
          ['a', 0.5000004],
          ['b', 0.5000004],
        ]),
      ),
    ).toEqual([1, 2]);
  });

  it('plans a split sorted by position, each set getting its quota', () => {
    const sets = shares([
      ['dev', 0.1],
      ['test', 0.1],
      ['train', 0.8],
    ]);
    const plan = planSplit(500, 100, 9, sets);
    expect(plan.setCount).toBe(3);
    const positions = [...plan.entries].map((entry) => Math.floor(entry / 3));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    const perSet = [0, 0, 0];
    for (const entry of plan.entries) perSet[entry % 3]! += 1;
    expect(perSet).toEqual([10, 10, 80]);
    expect([...planSplit(500, 100, 9, sets).entries]).toEqual([...plan.entries]);
    expect([...planSplit(500, 100, 10, sets).entries]).not.toEqual([...plan.entries]);
  });
});
