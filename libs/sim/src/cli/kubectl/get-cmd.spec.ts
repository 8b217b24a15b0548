import { describe, expect, it } from 'vitest';
import { createTerminal } from '..';
import { createLab } from '../../lab/lab';

function setup() {
  const lab = createLab({ seed: 3 });
  const t = createTerminal(lab, { letTimePass: false });
  for (const c of [
    'kubectl create ns team-a',
    'kubectl run web --image=nginx:1.27 -n team-a --labels=app=web,tier=front',
    'kubectl run db --image=postgres:16 -n team-a',
  ])
    expect(t.exec(c).exitCode).toBe(0);
  lab.advance(90_000);
  const run = (c: string) => {
    const r = t.exec(c);
    expect(r.exitCode, r.stderr).toBe(0);
    return r.stdout;
  };
  return { lab, t, run };
}

describe('kubectl get', () => {
  it('should print namespaces, labels and wide cells when -A, --show-labels and -o wide are given', () => {
    const { lab, run } = setup();
    const web = lab.peek('pods', 'team-a', 'web');
    const db = lab.peek('pods', 'team-a', 'db');
    const ip = (p: typeof web) => (p?.status as { podIP: string }).podIP;
    const node = (p: typeof web) => (p?.spec as { nodeName: string }).nodeName;
    const all = run('kubectl get pods -A').split('\n');
    expect(all[0]).toMatch(/^NAMESPACE +NAME +READY +STATUS +RESTARTS +AGE$/);
    expect(all.filter((l) => l.startsWith('team-a'))).toEqual([
      expect.stringMatching(/^team-a +db +1\/1 +Running +0 +90s$/),
      expect.stringMatching(/^team-a +web +1\/1 +Running +0 +90s$/),
    ]);
    expect(run('kubectl get pods -n team-a --show-labels')).toBe(
      'NAME   READY   STATUS    RESTARTS   AGE   LABELS\n' +
        'db     1/1     Running   0          90s   run=db\n' +
        'web    1/1     Running   0          90s   app=web,tier=front\n',
    );
    const wide = run('kubectl get pods -n team-a -o wide').split('\n');
    expect(wide[0]).toMatch(
      /^NAME +READY +STATUS +RESTARTS +AGE +IP +NODE +NOMINATED NODE +READINESS GATES$/,
    );
    expect(wide[1]?.split(/ {2,}/)).toEqual([
      'db',
      '1/1',
      'Running',
      '0',
      '90s',
      ip(db),
      node(db),
      '<none>',
      '<none>',
    ]);
    expect(wide[2]?.split(/ {2,}/)).toEqual([
      'web',
      '1/1',
      'Running',
      '0',
      '90s',
      ip(web),
      node(web),
      '<none>',
      '<none>',
    ]);
  });

  it('should print only the matching rows when -l and --field-selector are given', () => {
    const { run } = setup();
    const header = 'NAMESPACE   NAME   READY   STATUS    RESTARTS   AGE\n';
    expect(run('kubectl get pods -A -l app=web')).toBe(
      `${header}team-a      web    1/1     Running   0          90s\n`,
    );
    expect(
      run('kubectl get pods -A --field-selector metadata.namespace=team-a,metadata.name!=db'),
    ).toBe(`${header}team-a      web    1/1     Running   0          90s\n`);
  });

  it('should ask for a Table only when it prints one', () => {
    const { t } = setup();
    expect(t.exec('kubectl get pods -n team-a -v=7').stderr).toContain(
      'Accept: application/json;as=Table;v=v1;g=meta.k8s.io,',
    );
    const asJson = t.exec('kubectl get pods -n team-a -o name -v=7');
    expect(asJson.stdout).toBe('pod/db\npod/web\n');
    expect(asJson.stderr).toContain('Accept: application/json, */*');
    expect(asJson.stderr).not.toContain('as=Table');
  });

  it('should print the stored objects when -o json lists them', () => {
    const { lab, run } = setup();
    const list = JSON.parse(run('kubectl get pods -n team-a -o json')) as {
      kind: string;
      items: { metadata: { name: string; resourceVersion: string } }[];
    };
    expect(list.kind).toBe('List');
    expect(list.items.map((i) => i.metadata.name)).toEqual(['db', 'web']);
    expect(list.items[1]).toEqual(JSON.parse(JSON.stringify(lab.peek('pods', 'team-a', 'web'))));
  });
});
