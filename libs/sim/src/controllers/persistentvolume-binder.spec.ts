import { describe, expect, it } from 'vitest';
import { createTerminal } from '../cli/terminal';
import type { SimLab } from '../lab/lab';
import type {
  KubeEvent,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  StorageClass,
} from '../model';
import {
  ADMIN,
  createObj,
  get,
  kcmErrors,
  list,
  newLab,
  useControllerOnlyLab,
} from './lab-harness.test';
import { findBestMatchForClaim } from './persistentvolume-binder';

function pv(
  name: string,
  storage: string,
  extra: Partial<PersistentVolume['spec']> = {},
  labels?: Record<string, string>,
): PersistentVolume {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name, ...(labels ? { labels } : {}) },
    spec: {
      capacity: { storage },
      accessModes: ['ReadWriteOnce'],
      hostPath: { path: `/mnt/${name}` },
      ...extra,
    },
  };
}

function pvc(
  name: string,
  storage: string,
  extra: Partial<PersistentVolumeClaim['spec']> = {},
): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'default' },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage } }, ...extra },
  };
}

function storageClass(
  name: string,
  provisioner: string,
  extra: Partial<StorageClass> = {},
): StorageClass {
  return {
    apiVersion: 'storage.k8s.io/v1',
    kind: 'StorageClass',
    metadata: { name },
    provisioner,
    ...extra,
  };
}

function kubectl(lab: SimLab, cmd: string): string {
  const out = createTerminal(lab).exec(cmd);
  return out.stdout + out.stderr;
}

function addPv(lab: SimLab, volume: PersistentVolume): void {
  createObj(lab, 'persistentvolumes', volume, undefined);
}

/** `type reason (source) xcount: message` of the Events about one object, oldest first. */
function eventsAbout(lab: SimLab, name: string): string[] {
  return list<KubeEvent>(lab, 'events')
    .filter((e) => e.involvedObject.name === name)
    .sort((a, b) =>
      a.firstTimestamp < b.firstTimestamp ? -1 : a.firstTimestamp > b.firstTimestamp ? 1 : 0,
    )
    .map((e) => `${e.type} ${e.reason} (${e.source.component}) x${e.count}: ${e.message}`);
}

describe('persistentvolume-binder', { timeout: 60_000 }, () => {
  useControllerOnlyLab();

  it('should create a volume Pending and leave it there until the PV controller runs', () => {
    const lab = newLab();
    expect(lab.stopProcess({ component: 'kube-controller-manager' })).toBe(true);
    addPv(lab, pv('pv-1', '1Gi'));
    expect(get<PersistentVolume>(lab, 'persistentvolumes', 'pv-1')?.status?.phase).toBe('Pending');
    lab.advance(5_000);
    const header =
      'NAME   CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS      CLAIM   STORAGECLASS   VOLUMEATTRIBUTESCLASS   REASON   AGE\n';
    expect(kubectl(lab, 'kubectl get pv')).toBe(
      'NAME   CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS    CLAIM   STORAGECLASS   VOLUMEATTRIBUTESCLASS   REASON   AGE\n' +
        'pv-1   1Gi        RWO            Retain           Pending                          <unset>                          5s\n',
    );
    expect(lab.startProcess({ component: 'kube-controller-manager' })).toBe(true);
    lab.advance(5_000);
    expect(kubectl(lab, 'kubectl get pv')).toBe(
      header +
        'pv-1   1Gi        RWO            Retain           Available                          <unset>                          10s\n',
    );
  });

  it('should show a new volume Available once the PV controller has synced it', () => {
    const lab = newLab();
    addPv(lab, pv('pv-1', '1Gi'));
    lab.advance(1_000);
    expect(get<PersistentVolume>(lab, 'persistentvolumes', 'pv-1')?.status?.phase).toBe(
      'Available',
    );
  });

  it('should bind a claim to the smallest fitting Available volume of its class, both sides as upstream writes them', () => {
    const lab = newLab();
    addPv(lab, pv('pv-big', '5Gi'));
    addPv(lab, pv('pv-small', '1Gi'));
    addPv(lab, pv('pv-tiny', '500Mi'));
    addPv(lab, pv('pv-fast', '1Gi', { storageClassName: 'fast' }));
    lab.advance(1_000);
    const claim = createObj<PersistentVolumeClaim>(
      lab,
      'persistentvolumeclaims',
      pvc('data', '1Gi'),
    );
    lab.advance(2_000);
    expect(kubectl(lab, 'kubectl get pvc')).toBe(
      'NAME   STATUS   VOLUME     CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE\n' +
        'data   Bound    pv-small   1Gi        RWO                           <unset>                 2s\n',
    );
    expect(kubectl(lab, 'kubectl get pv')).toBe(
      'NAME       CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS      CLAIM          STORAGECLASS   VOLUMEATTRIBUTESCLASS   REASON   AGE\n' +
        'pv-big     5Gi        RWO            Retain           Available                                 <unset>                          3s\n' +
        'pv-fast    1Gi        RWO            Retain           Available                  fast           <unset>                          3s\n' +
        'pv-small   1Gi        RWO            Retain           Bound       default/data                  <unset>                          3s\n' +
        'pv-tiny    500Mi      RWO            Retain           Available                                 <unset>                          3s\n',
    );
    const bound = get<PersistentVolumeClaim>(lab, 'persistentvolumeclaims', 'data');
    expect(bound?.metadata.annotations).toEqual({
      'pv.kubernetes.io/bind-completed': 'yes',
      'pv.kubernetes.io/bound-by-controller': 'yes',
    });
    expect(bound?.spec.volumeName).toBe('pv-small');
    // the binding writes spec and annotations; status only through the status subresource
    expect(
      bound?.metadata.managedFields
        ?.filter((m) => m.manager === 'kube-controller-manager')
        .map((m) => `${m.subresource ?? 'main'}: ${Object.keys(m.fieldsV1 ?? {}).join(' ')}`),
    ).toEqual(['main: f:metadata f:spec', 'status: f:status']);
    expect(bound?.status).toEqual({
      phase: 'Bound',
      accessModes: ['ReadWriteOnce'],
      capacity: { storage: '1Gi' },
    });
    const volume = get<PersistentVolume>(lab, 'persistentvolumes', 'pv-small', undefined);
    expect(volume?.metadata.annotations).toEqual({ 'pv.kubernetes.io/bound-by-controller': 'yes' });
    expect(volume?.spec.claimRef).toEqual({
      kind: 'PersistentVolumeClaim',
      namespace: 'default',
      name: 'data',
      uid: claim.metadata.uid,
      apiVersion: 'v1',
      resourceVersion: claim.metadata.resourceVersion,
    });
    expect(volume?.status).toEqual({
      phase: 'Bound',
      lastPhaseTransitionTime: '2026-01-05T09:00:01Z',
    });
    expect(eventsAbout(lab, 'data')).toEqual([]);
    expect(kcmErrors(lab)).toEqual([]);
  });

  it('should search volumes with the fewest access modes first and honour the claim selector', () => {
    const vol = (
      name: string,
      storage: string,
      modes: PersistentVolume['spec']['accessModes'],
      labels?: Record<string, string>,
    ): PersistentVolume => ({
      ...pv(name, storage, { accessModes: modes }, labels),
      status: { phase: 'Available' },
    });
    const volumes = [
      vol('a-rwo-rox-1gi', '1Gi', ['ReadWriteOnce', 'ReadOnlyMany']),
      vol('b-rwo-2gi', '2Gi', ['ReadWriteOnce']),
      vol('c-rox-1gi', '1Gi', ['ReadOnlyMany']),
      vol('d-rwo-3gi-ssd', '3Gi', ['ReadWriteOnce'], { disk: 'ssd' }),
    ];
    const claim = pvc('c', '1Gi');
    // an RWO-only volume wins over a smaller RWO+ROX one
    expect(findBestMatchForClaim(claim, volumes, false)?.metadata.name).toBe('b-rwo-2gi');
    expect(
      findBestMatchForClaim(
        pvc('c', '1Gi', { accessModes: ['ReadOnlyMany', 'ReadWriteOnce'] }),
        volumes,
        false,
      )?.metadata.name,
    ).toBe('a-rwo-rox-1gi');
    expect(
      findBestMatchForClaim(
        pvc('c', '1Gi', { selector: { matchLabels: { disk: 'ssd' } } }),
        volumes,
        false,
      )?.metadata.name,
    ).toBe('d-rwo-3gi-ssd');
    expect(findBestMatchForClaim(pvc('c', '4Gi'), volumes, false)).toBeUndefined();
    // delayed binding is the scheduler's: the controller only honours a pre-binding
    expect(findBestMatchForClaim(claim, volumes, true)).toBeUndefined();
    // a Released (or Bound) volume is never picked
    expect(
      findBestMatchForClaim(
        claim,
        [{ ...volumes[1], status: { phase: 'Released' } } as PersistentVolume],
        false,
      ),
    ).toBeUndefined();
  });

  it('should keep a claim Pending with FailedBinding on every resync when nothing fits and no class is set', () => {
    const lab = newLab();
    addPv(lab, pv('pv-small', '1Gi'));
    addPv(lab, pv('pv-fast', '20Gi', { storageClassName: 'fast' }));
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('data', '10Gi'));
    lab.advance(31_000);
    expect(kubectl(lab, 'kubectl get pvc')).toBe(
      'NAME   STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE\n' +
        'data   Pending                                                     <unset>                 31s\n',
    );
    expect(kubectl(lab, 'kubectl get events')).toBe(
      'LAST SEEN   TYPE     REASON          OBJECT                       MESSAGE\n' +
        '2s          Normal   FailedBinding   persistentvolumeclaim/data   no persistent volumes available for this claim and no storage class is set\n',
    );
    expect(eventsAbout(lab, 'data')).toEqual([
      'Normal FailedBinding (persistentvolume-controller) x3: no persistent volumes available for this claim and no storage class is set',
    ]);
  });

  it('should refuse a requested volume that does not satisfy the claim, and one bound elsewhere', () => {
    const lab = newLab();
    addPv(lab, pv('pv-small', '1Gi'));
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('big', '5Gi', { volumeName: 'pv-small' }));
    createObj(
      lab,
      'persistentvolumeclaims',
      pvc('classy', '1Gi', { volumeName: 'pv-small', storageClassName: 'fast' }),
    );
    lab.advance(1_000);
    expect(eventsAbout(lab, 'big')).toEqual([
      'Warning VolumeMismatch (persistentvolume-controller) x1: Cannot bind to requested volume "pv-small": requested PV is too small',
    ]);
    expect(eventsAbout(lab, 'classy')).toEqual([
      'Warning VolumeMismatch (persistentvolume-controller) x1: Cannot bind to requested volume "pv-small": storageClassName does not match',
    ]);
    createObj(lab, 'persistentvolumeclaims', pvc('first', '1Gi', { volumeName: 'pv-small' }));
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('second', '1Gi', { volumeName: 'pv-small' }));
    lab.advance(1_000);
    expect(get<PersistentVolumeClaim>(lab, 'persistentvolumeclaims', 'first')?.status?.phase).toBe(
      'Bound',
    );
    expect(eventsAbout(lab, 'second')).toEqual([
      'Warning FailedBinding (persistentvolume-controller) x1: volume "pv-small" already bound to a different claim.',
    ]);
    expect(kubectl(lab, 'kubectl get pvc')).toBe(
      'NAME     STATUS    VOLUME     CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE\n' +
        'big      Pending   pv-small   0                                        <unset>                 3s\n' +
        'classy   Pending   pv-small   0                         fast           <unset>                 3s\n' +
        'first    Bound     pv-small   1Gi        RWO                           <unset>                 2s\n' +
        'second   Pending   pv-small   0                                        <unset>                 1s\n',
    );
  });

  it('should complete a binding the volume reserves for a claim, without marking it bound-by-controller', () => {
    const lab = newLab();
    addPv(lab, pv('reserved', '10Gi', { claimRef: { namespace: 'default', name: 'db' } }));
    addPv(lab, pv('exact', '1Gi'));
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('db', '1Gi'));
    lab.advance(1_000);
    const claim = get<PersistentVolumeClaim>(lab, 'persistentvolumeclaims', 'db');
    expect(claim?.spec.volumeName).toBe('reserved');
    expect(claim?.status?.capacity).toEqual({ storage: '10Gi' });
    const volume = get<PersistentVolume>(lab, 'persistentvolumes', 'reserved', undefined);
    expect(volume?.metadata.annotations).toBeUndefined();
    expect(volume?.spec.claimRef?.uid).toBe(claim?.metadata.uid);
    expect(volume?.status?.phase).toBe('Bound');
  });

  it('should release a Retain volume when its claim is deleted and keep it out of later bindings', () => {
    const lab = newLab();
    addPv(lab, pv('keep', '1Gi'));
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('data', '1Gi'));
    lab.advance(1_000);
    lab.request(ADMIN, 'delete', 'persistentvolumeclaims', { namespace: 'default', name: 'data' });
    lab.advance(1_000);
    expect(kubectl(lab, 'kubectl get pv')).toBe(
      'NAME   CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS     CLAIM          STORAGECLASS   VOLUMEATTRIBUTESCLASS   REASON   AGE\n' +
        'keep   1Gi        RWO            Retain           Released   default/data                  <unset>                          3s\n',
    );
    createObj(lab, 'persistentvolumeclaims', pvc('data', '1Gi'));
    lab.advance(20_000);
    expect(get<PersistentVolumeClaim>(lab, 'persistentvolumeclaims', 'data')?.status?.phase).toBe(
      'Pending',
    );
    expect(get<PersistentVolume>(lab, 'persistentvolumes', 'keep', undefined)?.status?.phase).toBe(
      'Released',
    );
  });

  it('should delete a Delete volume under /tmp and fail one the hostPath deleter refuses', () => {
    const lab = newLab();
    addPv(
      lab,
      pv('scratch', '1Gi', {
        persistentVolumeReclaimPolicy: 'Delete',
        hostPath: { path: '/tmp/scratch' },
      }),
    );
    addPv(
      lab,
      pv('data', '2Gi', {
        persistentVolumeReclaimPolicy: 'Delete',
        hostPath: { path: '/mnt/data' },
      }),
    );
    addPv(
      lab,
      pv('share', '3Gi', {
        persistentVolumeReclaimPolicy: 'Delete',
        hostPath: undefined,
        nfs: { server: '10.0.0.5', path: '/exports' },
      }),
    );
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('a', '1Gi', { volumeName: 'scratch' }));
    createObj(lab, 'persistentvolumeclaims', pvc('b', '2Gi', { volumeName: 'data' }));
    createObj(lab, 'persistentvolumeclaims', pvc('c', '3Gi', { volumeName: 'share' }));
    lab.advance(1_000);
    for (const name of ['a', 'b', 'c'])
      lab.request(ADMIN, 'delete', 'persistentvolumeclaims', { namespace: 'default', name });
    lab.advance(1_000);
    expect(kubectl(lab, 'kubectl get pv')).toBe(
      'NAME    CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS   CLAIM       STORAGECLASS   VOLUMEATTRIBUTESCLASS   REASON   AGE\n' +
        'data    2Gi        RWO            Delete           Failed   default/b                  <unset>                          3s\n' +
        'share   3Gi        RWO            Delete           Failed   default/c                  <unset>                          3s\n',
    );
    expect(eventsAbout(lab, 'data')).toEqual([
      'Warning VolumeFailedDelete (persistentvolume-controller) x1: host_path deleter only supports /tmp/.+ but received provided /mnt/data',
    ]);
    expect(eventsAbout(lab, 'share')).toEqual([
      'Warning VolumeFailedDelete (persistentvolume-controller) x1: error getting deleter volume plugin for volume "share": no deletable volume plugin matched',
    ]);
    expect(get<PersistentVolume>(lab, 'persistentvolumes', 'data', undefined)?.status).toEqual({
      phase: 'Failed',
      message: 'host_path deleter only supports /tmp/.+ but received provided /mnt/data',
      lastPhaseTransitionTime: '2026-01-05T09:00:02Z',
    });
  });

  it('should hand a claim of an Immediate class to its external provisioner and report that it waits', () => {
    const lab = newLab();
    createObj(lab, 'storageclasses', storageClass('standard', 'rancher.io/local-path'), undefined);
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('data', '1Gi', { storageClassName: 'standard' }));
    // once for the claim, once for its own annotation update coming back, once per resync
    lab.advance(16_000);
    const claim = get<PersistentVolumeClaim>(lab, 'persistentvolumeclaims', 'data');
    expect(claim?.metadata.annotations).toEqual({
      'volume.beta.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
      'volume.kubernetes.io/storage-provisioner': 'rancher.io/local-path',
    });
    expect(claim?.status?.phase).toBe('Pending');
    expect(eventsAbout(lab, 'data')).toEqual([
      "Normal ExternalProvisioning (persistentvolume-controller) x3: Waiting for a volume to be created either by the external provisioner 'rancher.io/local-path' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
    ]);
    // a matching volume created by hand satisfies the claim: a new volume enqueues only
    // itself, so the claim takes it on its next resync
    addPv(lab, pv('manual', '1Gi', { storageClassName: 'standard' }));
    lab.advance(1_000);
    expect(get<PersistentVolumeClaim>(lab, 'persistentvolumeclaims', 'data')?.spec.volumeName).toBe(
      undefined,
    );
    lab.advance(14_000);
    expect(get<PersistentVolumeClaim>(lab, 'persistentvolumeclaims', 'data')?.spec.volumeName).toBe(
      'manual',
    );
  });

  it('should report a class that does not exist and an in-tree provisioner the cluster lacks', () => {
    const lab = newLab();
    createObj(
      lab,
      'storageclasses',
      storageClass('local', 'kubernetes.io/no-provisioner'),
      undefined,
    );
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('ghost', '1Gi', { storageClassName: 'fast' }));
    createObj(lab, 'persistentvolumeclaims', pvc('local', '1Gi', { storageClassName: 'local' }));
    lab.advance(1_000);
    expect(eventsAbout(lab, 'ghost')).toEqual([
      'Warning ProvisioningFailed (persistentvolume-controller) x1: storageclass.storage.k8s.io "fast" not found',
    ]);
    expect(eventsAbout(lab, 'local')).toEqual([
      'Warning ProvisioningFailed (persistentvolume-controller) x1: no volume plugin matched name: kubernetes.io/no-provisioner',
    ]);
  });

  it('should wait for the first consumer of a WaitForFirstConsumer class, then name the pod it waits for', () => {
    const lab = newLab();
    createObj(
      lab,
      'storageclasses',
      storageClass('local', 'kubernetes.io/no-provisioner', {
        volumeBindingMode: 'WaitForFirstConsumer',
      }),
      undefined,
    );
    addPv(lab, pv('disk', '1Gi', { storageClassName: 'local' }));
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('data', '1Gi', { storageClassName: 'local' }));
    lab.advance(1_000);
    expect(eventsAbout(lab, 'data')).toEqual([
      'Normal WaitForFirstConsumer (persistentvolume-controller) x1: waiting for first consumer to be created before binding',
    ]);
    createObj<Pod>(lab, 'pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'app', namespace: 'default' },
      spec: {
        containers: [{ name: 'app', image: 'nginx:1.27' }],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }],
      },
    });
    lab.advance(15_000);
    expect(eventsAbout(lab, 'data')).toEqual([
      'Normal WaitForFirstConsumer (persistentvolume-controller) x1: waiting for first consumer to be created before binding',
      'Normal WaitForPodScheduled (persistentvolume-controller) x1: waiting for pod app to be scheduled',
    ]);
    // the volume is the scheduler's to bind, with the node it picks
    expect(get<PersistentVolume>(lab, 'persistentvolumes', 'disk', undefined)?.status?.phase).toBe(
      'Available',
    );
  });

  it('should give a claim without a class the default StorageClass, then provision through it', () => {
    const lab = newLab();
    createObj(
      lab,
      'storageclasses',
      storageClass('old', 'example.com/old', {
        metadata: {
          name: 'old',
          annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
        },
      }),
      undefined,
    );
    lab.advance(1_000);
    createObj(
      lab,
      'storageclasses',
      storageClass('csi', 'ebs.csi.aws.com', {
        metadata: {
          name: 'csi',
          annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' },
        },
      }),
      undefined,
    );
    createObj(lab, 'persistentvolumeclaims', pvc('data', '1Gi'));
    createObj(lab, 'persistentvolumeclaims', pvc('none', '1Gi', { storageClassName: '' }));
    lab.advance(1_000);
    // the newest default wins; an explicit "" means no class at all
    expect(kubectl(lab, 'kubectl get pvc')).toBe(
      'NAME   STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE\n' +
        'data   Pending                                      csi            <unset>                 1s\n' +
        'none   Pending                                                     <unset>                 1s\n',
    );
    expect(eventsAbout(lab, 'data').map((e) => e.split(':')[0])).toEqual([
      'Normal ExternalProvisioning (persistentvolume-controller) x2',
    ]);
    expect(eventsAbout(lab, 'none')).toEqual([
      'Normal FailedBinding (persistentvolume-controller) x1: no persistent volumes available for this claim and no storage class is set',
    ]);
  });

  it('should mark a bound claim Lost once its volume is deleted', () => {
    const lab = newLab();
    addPv(lab, pv('vol', '1Gi'));
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('data', '1Gi'));
    lab.advance(1_000);
    lab.request(ADMIN, 'delete', 'persistentvolumes', { name: 'vol' });
    lab.advance(1_000);
    expect(kubectl(lab, 'kubectl get pvc')).toBe(
      'NAME   STATUS   VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE\n' +
        'data   Lost     vol      0                                        <unset>                 2s\n',
    );
    expect(eventsAbout(lab, 'data')).toEqual([
      'Warning ClaimLost (persistentvolume-controller) x1: Bound claim has lost its PersistentVolume. Data on the volume is lost!',
    ]);
  });

  it('should bind nothing while kube-controller-manager is stopped and catch up once it runs again', () => {
    const lab = newLab();
    addPv(lab, pv('vol', '1Gi'));
    lab.advance(1_000);
    expect(lab.stopProcess({ component: 'kube-controller-manager' })).toBe(true);
    createObj(lab, 'persistentvolumeclaims', pvc('data', '1Gi'));
    lab.advance(60_000);
    expect(get<PersistentVolumeClaim>(lab, 'persistentvolumeclaims', 'data')?.status?.phase).toBe(
      'Pending',
    );
    expect(eventsAbout(lab, 'data')).toEqual([]);
    lab.startProcess({ component: 'kube-controller-manager' });
    lab.advance(2_000);
    expect(get<PersistentVolumeClaim>(lab, 'persistentvolumeclaims', 'data')?.status?.phase).toBe(
      'Bound',
    );
  });

  it('should do nothing at all in a lab without volumes or claims', () => {
    const lab = newLab();
    lab.advance(120_000);
    const own = lab
      .trace()
      .filter(
        (e) =>
          (e.data as { controller?: string } | undefined)?.controller === 'persistentvolume-binder',
      );
    expect(own).toEqual([]);
  });

  it('should describe a bound claim with the pod using it, and a volume whose deletion failed', () => {
    const lab = newLab();
    addPv(
      lab,
      pv('data', '2Gi', {
        persistentVolumeReclaimPolicy: 'Delete',
        hostPath: { path: '/mnt/data' },
      }),
    );
    addPv(
      lab,
      pv('vol', '1Gi', {
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              {
                matchExpressions: [
                  { key: 'kubernetes.io/hostname', operator: 'In', values: ['node-1'] },
                ],
              },
            ],
          },
        },
      }),
    );
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('b', '2Gi', { volumeName: 'data' }));
    createObj(lab, 'persistentvolumeclaims', pvc('web', '1Gi'));
    createObj<Pod>(lab, 'pods', {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'app', namespace: 'default' },
      spec: {
        containers: [{ name: 'app', image: 'nginx:1.27' }],
        volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'web' } }],
      },
    });
    lab.advance(1_000);
    lab.request(ADMIN, 'delete', 'persistentvolumeclaims', { namespace: 'default', name: 'b' });
    lab.advance(5_000);
    expect(kubectl(lab, 'kubectl describe pvc web')).toBe(
      [
        'Name:          web',
        'Namespace:     default',
        'StorageClass:  ',
        'Status:        Bound',
        'Volume:        vol',
        'Labels:        <none>',
        'Annotations:   pv.kubernetes.io/bind-completed: yes',
        '               pv.kubernetes.io/bound-by-controller: yes',
        'Finalizers:    []',
        'Capacity:      1Gi',
        'Access Modes:  RWO',
        'VolumeMode:    Filesystem',
        'Used By:       app',
        'Events:        <none>',
        '',
      ].join('\n'),
    );
    expect(kubectl(lab, 'kubectl describe pv data')).toBe(
      [
        'Name:            data',
        'Labels:          <none>',
        'Annotations:     pv.kubernetes.io/bound-by-controller: yes',
        'Finalizers:      []',
        'StorageClass:    ',
        'Status:          Failed',
        'Claim:           default/b',
        'Reclaim Policy:  Delete',
        'Access Modes:    RWO',
        'VolumeMode:      Filesystem',
        'Capacity:        2Gi',
        'Node Affinity:   <none>',
        'Message:         host_path deleter only supports /tmp/.+ but received provided /mnt/data',
        'Source:',
        '    Type:          HostPath (bare host directory volume)',
        '    Path:          /mnt/data',
        '    HostPathType:  ',
        'Events:',
        '  Type     Reason              Age   From                         Message',
        '  ----     ------              ----  ----                         -------',
        '  Warning  VolumeFailedDelete  5s    persistentvolume-controller  host_path deleter only supports /tmp/.+ but received provided /mnt/data',
        '',
      ].join('\n'),
    );
    expect(kubectl(lab, 'kubectl describe pv vol')).toContain(
      [
        'Node Affinity:     ',
        '  Required Terms:  ',
        '    Term 0:        kubernetes.io/hostname in [node-1]',
        'Message:           ',
      ].join('\n'),
    );
  });

  it('should act the same after serialize and restore as the original lab, mid-binding', async () => {
    const { restoreLab } = await import('../lab/lab');
    const lab = newLab();
    addPv(lab, pv('a', '1Gi'));
    addPv(
      lab,
      pv('b', '2Gi', { persistentVolumeReclaimPolicy: 'Delete', hostPath: { path: '/tmp/b' } }),
    );
    lab.advance(1_000);
    createObj(lab, 'persistentvolumeclaims', pvc('one', '1Gi'));
    createObj(lab, 'persistentvolumeclaims', pvc('two', '1Gi'));
    createObj(lab, 'persistentvolumeclaims', pvc('three', '1Gi'));
    const copy = restoreLab(lab.serialize());
    for (const l of [lab, copy]) {
      l.advance(2_000);
      l.request(ADMIN, 'delete', 'persistentvolumeclaims', { namespace: 'default', name: 'two' });
      l.advance(20_000);
    }
    const a = JSON.parse(lab.serialize()) as Record<string, unknown>;
    const b = JSON.parse(copy.serialize()) as Record<string, unknown>;
    expect(b['etcd']).toEqual(a['etcd']);
    const actions = (l: SimLab) =>
      l.trace().map((e) => [e.seq, e.t, e.component, e.verb, e.object?.name, e.message]);
    expect(actions(copy)).toEqual(actions(lab));
    // claims sync in key order: one takes the 1Gi volume, three the 2Gi one, two finds none
    expect(kubectl(copy, 'kubectl get pvc')).toBe(
      'NAME    STATUS   VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE\n' +
        'one     Bound    a        1Gi        RWO                           <unset>                 22s\n' +
        'three   Bound    b        2Gi        RWO                           <unset>                 22s\n',
    );
  });
});
