import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../client/api-client';
import { createLab, restoreLab } from '../lab/lab';
import type { LabRequest } from '../lab/lab-types';
import type { KubeList, KubeObject, Table } from '../model';
import { printTable } from './printers';

const ADMIN = 'kubernetes-admin';

function setup() {
  const lab = createLab({ seed: 7 });
  const admin = (r: LabRequest): ApiResponse => lab.request(ADMIN, r);
  for (const name of ['web-b', 'web-a']) {
    const r = admin({
      verb: 'create',
      resource: 'pods',
      namespace: 'default',
      body: {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, labels: { app: 'web' } },
        spec: { containers: [{ name: 'app', image: 'nginx:1.27' }] },
      },
    });
    expect(r.code).toBe(201);
  }
  return { lab, admin };
}

const table = (r: ApiResponse) => r.body as Table;

describe('apiserver list and get (reads from the watch cache)', () => {
  it('should return independent copies when a List is asked for', () => {
    const { lab, admin } = setup();
    const list = admin({ verb: 'list', resource: 'pods', namespace: 'default' }).body as KubeList;
    const item = list.items[0] as KubeObject;
    expect(Object.isFrozen(item)).toBe(false);
    (item.metadata.labels as Record<string, string>).app = 'changed';
    item.metadata.name = 'renamed';
    expect(lab.peek('pods', 'default', 'web-a')?.metadata.labels).toEqual({ app: 'web' });
    const again = admin({ verb: 'list', resource: 'pods', namespace: 'default' }).body as KubeList;
    expect(again.items.map((o) => o.metadata.name)).toEqual(['web-a', 'web-b']);
  });

  it('should hand out frozen objects in Table rows so a client cannot change the cache', () => {
    const { admin } = setup();
    const t = table(
      admin({ verb: 'list', resource: 'pods', namespace: 'default', query: { asTable: true } }),
    );
    expect(t.rows.map((r) => r.cells[0])).toEqual(['web-a', 'web-b']);
    const obj = t.rows[0]?.object as KubeObject;
    expect(() => {
      obj.metadata.name = 'renamed';
    }).toThrow(TypeError);
    const one = table(
      admin({
        verb: 'get',
        resource: 'pods',
        namespace: 'default',
        name: 'web-a',
        query: { asTable: true },
      }),
    );
    expect(Object.isFrozen(one.rows[0]?.object)).toBe(true);
    expect(one.rows[0]?.cells[0]).toBe('web-a');
  });

  it('should print a new row when the object changes and new ages when time passes', () => {
    const { lab, admin } = setup();
    const list = () =>
      table(
        admin({ verb: 'list', resource: 'pods', namespace: 'default', query: { asTable: true } }),
      );
    expect(list().rows.map((r) => [r.cells[0], r.cells[2], r.cells[4], r.cells[6]])).toEqual([
      ['web-a', 'Pending', '0s', '<none>'],
      ['web-b', 'Pending', '0s', '<none>'],
    ]);
    lab.advance(3 * 60_000);
    const after = list();
    // the scheduler and the kubelets moved both pods on; every cell is what the printer says now
    expect(after.rows.map((r) => r.cells)).toEqual(
      printTable('pods', lab.peekAll('pods', 'default'), {
        startMs: Date.parse(lab.options.startTime),
        nowMs: lab.now,
      }).rows.map((r) => r.cells),
    );
    expect(after.rows.map((r) => [r.cells[2], r.cells[4]])).toEqual([
      ['Running', '3m'],
      ['Running', '3m'],
    ]);
  });

  it('should keep printed rows out of the serialized lab when Tables are cached', () => {
    const { lab, admin } = setup();
    const list = () => admin({ verb: 'list', resource: 'pods', query: { asTable: true } });
    list();
    // a restored lab starts with no printed rows; both must serialize and print the same
    const restored = restoreLab(lab.serialize());
    expect(restored.serialize()).toBe(lab.serialize());
    const again = restored.request(ADMIN, {
      verb: 'list',
      resource: 'pods',
      query: { asTable: true },
    });
    expect(table(again).rows.map((r) => r.cells)).toEqual(table(list()).rows.map((r) => r.cells));
    expect(restored.serialize()).toBe(lab.serialize());
  });

  it('should filter Table rows by label and field selectors', () => {
    const { admin } = setup();
    const names = (query: LabRequest['query'], namespace?: string) =>
      table(
        admin({ verb: 'list', resource: 'pods', namespace, query: { asTable: true, ...query } }),
      ).rows.map((r) => r.cells[0]);
    expect(names({ labelSelector: 'app=web', fieldSelector: 'metadata.name=web-b' })).toEqual([
      'web-b',
    ]);
    expect(
      names({ labelSelector: 'app!=web', fieldSelector: 'metadata.namespace=default' }),
    ).toEqual([]);
    // a namespace pinned by the field selector narrows the list; every requirement still holds
    expect(names({ fieldSelector: 'metadata.namespace=default' })).toEqual(['web-a', 'web-b']);
    expect(
      names({ fieldSelector: 'metadata.namespace=default,metadata.namespace!=default' }),
    ).toEqual([]);
    expect(names({ fieldSelector: 'metadata.namespace=kube-system' }, 'default')).toEqual([]);
    expect(names({ fieldSelector: 'metadata.namespace=default' }, 'default')).toEqual([
      'web-a',
      'web-b',
    ]);
    expect(names({ fieldSelector: 'metadata.namespace=' })).toEqual([]);
    expect(names({ fieldSelector: 'metadata.namespace!=default' })).not.toContain('web-a');
  });
});
