import { describe, expect, it } from 'vitest';
import { makeNode, makePod, snapshotOf } from '../testing/factories';
import {
  calculatePriority,
  imageLocalityPlugin,
  normalizedImageName,
} from './image-locality.plugin';

const MB = 1024 * 1024;
const img = (name: string, mb: number) => ({ names: [name], sizeBytes: mb * MB });

describe('ImageLocality score', () => {
  const cases: { name: string; holders: number; sizeMb: number; want: number[] }[] = [
    {
      name: 'should score 10 for the only node holding a 500MB image among 4',
      holders: 1,
      sizeMb: 500,
      want: [10, 0, 0, 0],
    },
    {
      name: 'should score 48 on every node when all 4 nodes hold the image',
      holders: 4,
      sizeMb: 500,
      want: [48, 48, 48, 48],
    },
    {
      name: 'should score 0 when the image is below the 23MB threshold',
      holders: 1,
      sizeMb: 20,
      want: [0, 0, 0, 0],
    },
    {
      name: 'should cap at 100 when the scaled size passes 1000MB per container',
      holders: 4,
      sizeMb: 1500,
      want: [100, 100, 100, 100],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const nodes = ['a', 'b', 'c', 'd'].map((n, i) =>
        makeNode(n, { images: i < c.holders ? [img('example.com/big:1.0', c.sizeMb)] : [] }),
      );
      const snap = snapshotOf(nodes);
      const pod = makePod('p', { image: 'example.com/big:1.0' });
      expect(snap.nodes.map((n) => imageLocalityPlugin.score(pod, n, undefined, snap))).toEqual(
        c.want,
      );
    });
  }

  it('should add :latest when the image has no tag', () => {
    expect(normalizedImageName('nginx')).toBe('nginx:latest');
    expect(normalizedImageName('localhost:5000/app')).toBe('localhost:5000/app:latest');
    expect(normalizedImageName('nginx:1.27')).toBe('nginx:1.27');
  });

  it('should scale the thresholds with the number of containers', () => {
    expect(calculatePriority(1000 * MB, 2)).toBe(49);
  });
});
